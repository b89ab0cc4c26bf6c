// The information documents of the contract: Markdown and text for machines, HTML for
// people. Content lives in src/docs/text/.
import type { Request, Response } from 'express';
import type { Documents } from '../docs/documents.ts';
import { sendPrebuilt } from '../http/send.ts';
import type { Handler, HandlerContext } from './types.ts';

async function serve(req: Request, res: Response, ctx: HandlerContext, key: keyof Documents, type: string): Promise<void> {
  const documents = await ctx.services.documents();
  res.setHeader('Cache-Control', 'public, max-age=300');
  if (type === 'text/html') {
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  }
  res.type(`${type}; charset=utf-8`);
  sendPrebuilt(req, res, ctx.services.reads.fixed(`document:${key}`, () => documents[key]));
}

export const getMethodology: Handler<'getMethodology'> = (req, res, ctx) => serve(req, res, ctx, 'methodology', 'text/markdown');
export const getLlmsTxt: Handler<'getLlmsTxt'> = (req, res, ctx) => serve(req, res, ctx, 'llmsTxt', 'text/plain');
export const getAgentsMd: Handler<'getAgentsMd'> = (req, res, ctx) => serve(req, res, ctx, 'agents', 'text/markdown');
export const getAuthMd: Handler<'getAuthMd'> = (req, res, ctx) => serve(req, res, ctx, 'auth', 'text/markdown');
/** A page for people, its Markdown source for agents that prefer text/markdown. */
function negotiate(req: Request, res: Response, ctx: HandlerContext, html: keyof Documents, markdown: keyof Documents): Promise<void> {
  res.vary('Accept');
  if (req.accepts(['text/html', 'text/markdown']) === 'text/markdown') return serve(req, res, ctx, markdown, 'text/markdown');
  return serve(req, res, ctx, html, 'text/html');
}

export const getPrivacy: Handler<'getPrivacy'> = (req, res, ctx) => negotiate(req, res, ctx, 'privacyHtml', 'privacyMd');
export const getTerms: Handler<'getTerms'> = (req, res, ctx) => negotiate(req, res, ctx, 'termsHtml', 'termsMd');

function serveOrigin(res: Response, ctx: HandlerContext, key: keyof HandlerContext['services']['origin'], type: string): void {
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.type(type).send(ctx.services.origin[key]);
}

export const getRobotsTxt: Handler<'getRobotsTxt'> = (_req, res, ctx) => serveOrigin(res, ctx, 'robotsTxt', 'text/plain; charset=utf-8');
export const getSitemap: Handler<'getSitemap'> = (_req, res, ctx) => serveOrigin(res, ctx, 'sitemapXml', 'application/xml; charset=utf-8');
export const getSecurityTxt: Handler<'getSecurityTxt'> = (_req, res, ctx) => serveOrigin(res, ctx, 'securityTxt', 'text/plain; charset=utf-8');
export const getApiCatalog: Handler<'getApiCatalog'> = (_req, res, ctx) =>
  serveOrigin(res, ctx, 'apiCatalog', 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
export const getArd: Handler<'getArd'> = (_req, res, ctx) => serveOrigin(res, ctx, 'ard', 'application/json; charset=utf-8');
export const getAiCatalog: Handler<'getAiCatalog'> = (_req, res, ctx) => serveOrigin(res, ctx, 'aiCatalog', 'application/json; charset=utf-8');
