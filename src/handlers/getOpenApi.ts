// The bundled contract at its three customary addresses.
import type { Request, Response } from 'express';
import { sendPrebuilt } from '../http/send.ts';
import type { Handler, HandlerContext } from './types.ts';

function serveDocument(req: Request, res: Response, ctx: HandlerContext): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Point tools at the instance that served the document, not the local default. Serialised once.
  sendPrebuilt(req, res, ctx.services.reads.fixed('openapi.json', () => JSON.stringify({ ...ctx.spec, servers: [{ url: ctx.config.baseUrl, description: 'This instance.' }] })));
}

export const getOpenApi: Handler<'getOpenApi'> = serveDocument;
export const getOpenApiWellKnown: Handler<'getOpenApiWellKnown'> = serveDocument;
export const getSwaggerJson: Handler<'getSwaggerJson'> = serveDocument;
