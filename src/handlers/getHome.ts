// GET /: the home page for people (HTML) and agents (Markdown, by Accept), with Vary: Accept.
import { homeCsp, renderHome, renderHomeMarkdown } from '../pages/home.ts';
import { sendPrebuilt } from '../http/send.ts';
import type { Handler } from './types.ts';

export const getHome: Handler<'getHome'> = (req, res, ctx) => {
  const opts = { baseUrl: ctx.config.baseUrl, ...(ctx.config.turnstileSiteKey ? { turnstileSiteKey: ctx.config.turnstileSiteKey } : {}) };
  res.vary('Accept');
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Link', '</openapi.json>; rel="service-desc"; type="application/json", </methodology.md>; rel="describedby"; type="text/markdown", </>; rel="alternate"; type="text/markdown", </llms.txt>; rel="describedby"; type="text/plain", </.well-known/ard.json>; rel="ard"; type="application/json"');
  if (req.accepts(['text/html', 'text/markdown']) === 'text/markdown') {
    res.type('text/markdown; charset=utf-8');
    sendPrebuilt(req, res, ctx.services.reads.fixed('home.md', () => renderHomeMarkdown(opts)));
    return;
  }
  res.setHeader('Content-Security-Policy', homeCsp(Boolean(opts.turnstileSiteKey)));
  res.type('text/html; charset=utf-8');
  sendPrebuilt(req, res, ctx.services.reads.fixed('home.html', () => renderHome(opts)));
};
