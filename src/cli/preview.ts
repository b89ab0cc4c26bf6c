/**
 * `scan <domain> --header 'Name: value'`: an authenticated preview. The headers are the caller's
 * secrets (a Vercel protection bypass, a preview password), and our API must never receive
 * them, so the hosted service cannot scan with them: the whole rubric runs here, in-process,
 * from the caller's own network (direct, or through HTTPS_PROXY as curl goes). The egress adds
 * the headers on every hop whose URL is the scanned origin, and on no other: not a redirect
 * target off it, not a sitemap host, not our API (which this mode never contacts).
 */
import { randomUUID } from 'node:crypto';
import { createEgress } from '../net/egress.ts';
import { normalizeDomain } from '../net/domain.ts';
import { createScanner } from '../scanner/engine.ts';
import type { Profile } from '../scanner/types.ts';
import type { ScanIntent } from '../scanner/intent-request.ts';
import type { ScanReport } from './api.ts';
import { previewLabel, withOriginHeaders, type ExtraHeader } from './headers.ts';
import { asThisMachine, type LocalScan } from './local.ts';
import type { Env } from './proxy-env.ts';
import { userNetworkEgress } from './vantage.ts';

const DEADLINE_MS = 25_000;
const PROBE_TIMEOUT_MS = 8_000;

export type PreviewScan = LocalScan & { headerNames: string[] };

export async function scanPreview(target: string, headers: readonly ExtraHeader[], env: Env, ask: { profile?: Profile; rubric?: string; intent?: ScanIntent }): Promise<PreviewScan> {
  const normalized = normalizeDomain(target);
  if (!normalized.ok) throw new Error(normalized.message);
  const domain = normalized.domain;
  const origin = `https://${domain}`;
  const here = withOriginHeaders(userNetworkEgress(domain, env), origin, headers);
  const none = createEgress({ name: 'networkB' });
  try {
    const scanner = createScanner({ networks: { networkA: here, networkB: none }, deadlineMs: DEADLINE_MS, probeTimeoutMs: PROBE_TIMEOUT_MS });
    const { report, evidence } = await scanner.scan(domain, ask);
    const full: ScanReport = { ...report, scanId: randomUUID(), outreachEligible: false };
    const probeMethod = `Authenticated preview: measured from this machine by the agent-readiness CLI, with ${previewLabel(origin, headers.map(([n]) => n))}. `
      + 'No hosted service was contacted and nothing was uploaded, so there is one network and no permalink. '
      + report.probeMethod.replace(/^Measured from two cloud datacenter networks \(networkA, networkB\)\. /, '');
    return { origin, headerNames: headers.map(([n]) => n), ...asThisMachine(full, evidence, probeMethod) };
  } finally {
    await Promise.all([here.close(), none.close()]);
  }
}
