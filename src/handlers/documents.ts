// The information documents of the contract: Markdown and text for machines, HTML for
// people. Content lives in src/docs/text/.
import type { Response } from 'express';
import type { Documents } from '../docs/documents.ts';
import type { Handler, HandlerContext } from './types.ts';

function serve(res: Response, ctx: HandlerContext, key: keyof Documents, type: string): void {
  res.setHeader('Cache-Control', 'public, max-age=300');
  if (type === 'text/html') {
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  }
  res.type(`${type}; charset=utf-8`).send(ctx.services.documents[key]);
}

export const getMethodology: Handler<'getMethodology'> = (_req, res, ctx) => serve(res, ctx, 'methodology', 'text/markdown');
export const getLlmsTxt: Handler<'getLlmsTxt'> = (_req, res, ctx) => serve(res, ctx, 'llmsTxt', 'text/plain');
export const getAgentsMd: Handler<'getAgentsMd'> = (_req, res, ctx) => serve(res, ctx, 'agents', 'text/markdown');
export const getAuthMd: Handler<'getAuthMd'> = (_req, res, ctx) => serve(res, ctx, 'auth', 'text/markdown');
export const getPrivacy: Handler<'getPrivacy'> = (_req, res, ctx) => serve(res, ctx, 'privacyHtml', 'text/html');
export const getTerms: Handler<'getTerms'> = (_req, res, ctx) => serve(res, ctx, 'termsHtml', 'text/html');
