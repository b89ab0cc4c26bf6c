// The bundled contract at its three customary addresses.
import type { Request, Response } from 'express';
import type { AppContext } from '../context.ts';
import type { Handler } from './types.ts';

function serveDocument(_req: Request, res: Response, ctx: AppContext): void {
  // Point tools at the instance that served the document, not the local default.
  res.json({ ...ctx.spec, servers: [{ url: ctx.config.baseUrl, description: 'This instance.' }] });
}

export const getOpenApi: Handler<'getOpenApi'> = serveDocument;
export const getOpenApiWellKnown: Handler<'getOpenApiWellKnown'> = serveDocument;
export const getSwaggerJson: Handler<'getSwaggerJson'> = serveDocument;
