// The operator's internal statistics (not part of the public contract): counts over archived
// site scans by headline, score band and vendor. Off unless OPERATOR_TOKEN is set; the token
// is compared in constant time and never echoed.
import express, { type Request, type Response, type Router } from 'express';
import type { Knex } from 'knex';
import { html, SafeHtml } from '../report/html.ts';
import { STYLE, STYLE_HASH } from '../report/styles.ts';
import { countStats, type Stats } from '../storage/queries/countStats.ts';
import { addExcludedDomain } from '../storage/queries/excludedDomains.ts';
import { normalizeDomain } from '../net/domain.ts';
import type { ApiKeys } from '../keys/service.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { secretsEqual } from '../security/compare.ts';

function authorized(req: Request, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
  return m !== null && secretsEqual(m[1], token);
}

function table(title: string, rows: Record<string, number>): SafeHtml {
  const entries = Object.entries(rows);
  return html`<h2>${title}</h2><table><thead><tr><th scope="col">${title}</th><th scope="col">Scans</th></tr></thead><tbody>
${entries.length ? entries.map(([k, n]) => html`<tr><td>${k}</td><td>${n}</td></tr>`) : html`<tr><td colspan="2">none yet</td></tr>`}</tbody></table>`;
}

function page(s: Stats): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Operator statistics · agent-readiness</title><style>${new SafeHtml(STYLE)}</style></head>
<body><main><h1>Operator statistics</h1><p>${s.total} archived site scans (ephemeral tunnel hosts are never archived).</p>
${table('Headline', s.byHeadline)}${table('Score band', s.byScoreBand)}${table('Vendor', s.byVendor)}</main></body></html>`.value;
}

/** Mount with app.use(operatorRouter(...)) before the public routes; serves /internal/stats(.json),
 * POST /internal/excluded-domains and the partner keys (/internal/api-keys, api-keys.ts). */
export function operatorRouter(db: Knex, token: string | undefined, keys?: ApiKeys): Router {
  const router = express.Router();
  router.use('/internal', (req: Request, res: Response, next) => {
    res.set('Cache-Control', 'no-store').set('X-Robots-Tag', 'noindex');
    if (token === undefined) {
      res.status(404).json({ error: 'Internal pages are off on this instance.' });
      return;
    }
    if (!authorized(req, token)) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="operator"').json({ error: 'Operator token required.' });
      return;
    }
    next();
  });
  router.get('/internal/stats.json', async (_req, res) => {
    res.json(await countStats(db));
  });
  // An owner's opt-out request, recorded without a redeploy (EXCLUDED_DOMAINS needs one).
  router.post('/internal/excluded-domains', express.json({ limit: 4096 }), async (req, res) => {
    const body = (req.body ?? {}) as { domain?: unknown; reason?: unknown };
    const n = typeof body.domain === 'string' ? normalizeDomain(body.domain) : null;
    if (!n?.ok) {
      res.status(400).json({ error: 'Send {"domain": "example.com", "reason"?: "…"}.' });
      return;
    }
    const reason = typeof body.reason === 'string' ? body.reason.slice(0, 200) : null;
    await addExcludedDomain(db, n.domain, reason, new Date().toISOString());
    res.status(201).json({ excluded: n.domain });
  });
  if (keys) apiKeyRoutes(router, keys);
  router.get('/internal/stats', async (_req, res) => {
    res
      .set('Content-Security-Policy', `default-src 'none'; style-src '${STYLE_HASH}'; frame-ancestors 'none'`)
      .type('text/html; charset=utf-8')
      .send(page(await countStats(db)));
  });
  return router;
}
