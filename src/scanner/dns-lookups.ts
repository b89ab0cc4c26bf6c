/**
 * The DNS discovery lookups of a scan (dns-records.ts), by DNS over HTTPS through networkA's
 * guarded egress: never the host's resolver. They go to the resolver (SCAN_DOH_URL), not to the
 * site, so they do not take the site's politeness slots; each counts in the scan's request budget
 * and they go out in two waves (lookUpDnsRecords). They start once round one's first requests are
 * on their way and are awaited only after round two, so they run beside the probes, never on the
 * scan's critical path.
 */
import type { Egress } from '../net/egress.ts';
import { DNS_MESSAGE, dohGetUrl, readDohAnswer, type DohAnswer } from '../net/doh.ts';
import { DNS_RECORD_KINDS, type DnsRecordKind } from './dns-records.ts';
import { requestHeadersFor, toView, type ProbeContext, type ProbeSpec } from './probe.ts';
import type { EvidenceRecord } from './types.ts';

/** A DNS answer is small; anything past this is not one. */
const DOH_MAX_BYTES = 64 * 1024;

export interface DohSettings {
  /** The resolver's URL (RFC 8484 URI template without variables; `?dns=` is appended). */
  url: string;
  /** Our own User-Agent (the lookups are agent-readiness's, not any agent's). */
  userAgent: string;
}

export interface DnsLookup {
  kind: DnsRecordKind;
  name: string;
  answer: DohAnswer;
  evidenceId: string;
}

export interface DnsEvidence {
  resolver: string;
  lookups: DnsLookup[];
}

/**
 * How long, once round two is done, the engine still waits for lookups under way; then they are
 * cut off as failed. A resolver that hangs can lengthen a scan by this much and no more.
 */
export const DNS_GRACE_MS = 1500;

/**
 * Every lookup for `domain`, in DNS_RECORD_KINDS order, with the evidence record of each request.
 * They go out the first alone, then the other four at once. The first shows the
 * resolver answers (one that does not is asked nothing more, see below) and opens, or reuses, the
 * connection whose TLS session the others resume. Measured paired in one process (bench/results.md,
 * `npm run bench:scan -- --lookups`): five one after another, +5.5 % CPU per scan one scan at a
 * time and +3.1 % in 50 concurrent scans; two waves, +3.3 % and +0.3 %, then +1.1 % and +3.6 %.
 */
export async function lookUpDnsRecords(
  domain: string, egress: Egress, settings: DohSettings, ctx: Pick<ProbeContext, 'timeoutMs' | 'signal' | 'budget'>,
): Promise<{ dns: DnsEvidence; records: EvidenceRecord[] }> {
  const [first, ...rest] = DNS_RECORD_KINDS;
  const head = await lookUp(domain, first!, egress, settings, ctx, undefined);
  // When the resolver itself gave no answer (a timeout, a refused connection), the others are not
  // sent: they would wait as long, each, for the same silence.
  const unreachable = head.record.errorCode && head.record.errorCode !== 'BUDGET' ? `${head.record.errorCode} on ${first!.label}` : undefined;
  const results = [head, ...(await Promise.all(rest.map((kind) => lookUp(domain, kind, egress, settings, ctx, unreachable))))];
  return { dns: { resolver: settings.url, lookups: results.map((r) => r.lookup) }, records: results.map((r) => r.record) };
}

async function lookUp(domain: string, kind: DnsRecordKind, egress: Egress, settings: DohSettings, ctx: Pick<ProbeContext, 'timeoutMs' | 'signal' | 'budget'>, unreachable: string | undefined) {
  const name = `${kind.label}.${domain}`;
  const spec: ProbeSpec = { key: `dns:${kind.label}`, network: 'networkA', url: dohGetUrl(settings.url, name, kind.type), userAgent: settings.userAgent, arrival: [['user-agent', settings.userAgent], ['accept', DNS_MESSAGE]], isHome: false, keepBody: false, statusOnly: true };
  const notSent = (errorCode: string, message: string) => {
    const record = toView(spec, { ok: false, errorCode, message, redirects: [], timingMs: 0 }).record;
    return { record, lookup: { kind, name, answer: { state: 'failed' as const, reason: message }, evidenceId: record.id } };
  };
  if (!egress.configured) return notSent('UNCONFIGURED', 'networkA is not configured');
  if (ctx.signal.aborted) return notSent('DEADLINE', 'the scan (or its wait for DNS) ended before this lookup started');
  if (unreachable) return notSent('NOT_ASKED', `not asked: the resolver gave no answer to an earlier lookup (${unreachable})`);
  if (ctx.budget.remaining <= 0) return notSent('BUDGET', 'the per-scan request budget was spent');
  ctx.budget.remaining--;
  const result = await egress.fetch({ url: spec.url, headers: requestHeadersFor(spec), timeoutMs: ctx.timeoutMs, maxBodyBytes: DOH_MAX_BYTES, maxRedirects: 0, signal: ctx.signal });
  const record = toView(spec, result).record;
  const answer: DohAnswer = result.ok
    ? (result.bodyTruncated ? { state: 'failed', reason: 'the answer exceeded 64 KiB' } : readDohAnswer(result.status, result.headers['content-type'] ?? '', result.body, kind.type))
    : { state: 'failed', reason: `${result.errorCode}: ${result.message}` };
  return { record, lookup: { kind, name, answer, evidenceId: record.id } };
}
