// GET /.well-known/signature-agent-card: who signs our Web Bot Auth probes (draft-meunier-webbotauth-
// registry-04). What it announces is read from what the scanner really keeps to: the engine's
// per-site bound and per-scan budget, RATE_LIMIT_PER_DOMAIN, and the paths every scan asks for.
import { AUX_PATHS } from '../scanner/gather.ts';
import { DEFAULT_CONCURRENCY, MAX_REQUESTS_PER_SCAN } from '../scanner/engine.ts';
import { signatureAgentCard } from '../signing/agent-card.ts';
import type { Handler } from './types.ts';

export const getSignatureAgentCard: Handler<'getSignatureAgentCard'> = async (_req, res, ctx) => {
  const c = ctx.config;
  const key = await ctx.services.probeKey();
  const card = signatureAgentCard({
    baseUrl: c.baseUrl, contact: c.securityContact, userAgent: `agent-readiness/1.0 (+${c.baseUrl}/methodology.md)`, key,
    concurrencyPerSite: DEFAULT_CONCURRENCY, maxRequestsPerScan: MAX_REQUESTS_PER_SCAN, scansPerDomain: c.rateLimitPerDomain, knownPaths: AUX_PATHS,
  });
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.json(card);
};
