import { coalesceKey, normalizeDomain } from '../net/domain.ts';
import type { Handler } from './types.ts';

const HINT =
  'POST /scan with {"domain": "example.com", "lead": {"name": "…", "email": "…"}} runs a live scan from two networks (10 to 30 s). ' +
  'Add "fresh": true to skip the 45-second coalescing window, "profile" to pin the rubric profile, "intent" (e.g. {"training": "block", "search": "allow"}) to be told whether the site does what you want for each role of agent. See /openapi.json and /methodology.md.';

export const getScanHint: Handler<'getScanHint'> = (req, res) => {
  const domain = typeof req.query.domain === 'string' ? normalizeDomain(req.query.domain) : null;
  res.json({ hint: HINT, coalesceKey: domain?.ok ? coalesceKey(domain.domain) : null });
};
