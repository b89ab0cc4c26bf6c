// Canned engine output and a counting fake scanner, so the API tests control verdicts and
// can count upstream scans.
import pino from 'pino';
import type { EngineReport, EvidenceRecord, MatrixEntry } from '../../src/scanner/types.ts';
import type { Resolver, ScanIntent, SiteScanner } from '../../src/scans/types.ts';
import { reportVersions } from '../../src/scanner/versions.ts';

export const silentLog = pino({ level: 'silent' });

function entry(ua: string, over: Partial<MatrixEntry> = {}): MatrixEntry {
  return {
    ua, intent: 'training', robotsSays: 'allowed', edgeDoes: { networkA: 'pass', networkB: 'pass' }, httpStatus: { networkA: 200, networkB: 200 },
    verdict: 'pass', measurement: 'measured', attributedVendors: ['Cloudflare'], notes: [], ...over,
  };
}

export function cannedReport(domain: string, over: Partial<EngineReport> = {}): EngineReport {
  return {
    schemaVersion: 1, domain, scannedAt: new Date().toISOString(), headline: 'partially-blocked',
    reasons: ['Requests identifying as GPTBot from cloud networks were blocked (403) on networkA and networkB.'],
    confidence: 'high', confidenceNote: 'Both networks agreed and robots.txt was read.', vantagesConfirmed: true,
    score: { value: 72, display: '72', decidedCount: 9, minDecided: 5, categories: { access: 60, discovery: 90, content: null }, rubricVersion: 'rubric-v1.1' },
    profile: 'general',
    checks: [
      { id: 'robots-txt-present', category: 'discovery', weight: 2, status: 'pass' },
      { id: 'edge-allows-agents', category: 'access', weight: 5, status: 'fail', detail: 'GPTBot denied on both networks' },
      { id: 'llms-txt', category: 'content', weight: 1, status: 'inconclusive' },
    ],
    matrix: [
      entry('GPTBot', { edgeDoes: { networkA: 'block', networkB: 'block' }, httpStatus: { networkA: 403, networkB: 403 }, verdict: 'denied' }),
      entry('ClaudeBot'),
      entry('Google-Extended', { edgeDoes: null, httpStatus: null, verdict: 'not-probeable', measurement: 'inferred', attributedVendors: [] }),
    ],
    evidenceRefs: ['ev-1', 'ev-2'],
    probeMethod: 'Each agent request was sent from two datacenter networks with the agent\'s published user-agent string.',
    versions: reportVersions('rubric-v1.1'),
    ...over,
  };
}

export function evidenceFor(domain: string): EvidenceRecord[] {
  const base = {
    network: 'networkA' as const, url: `https://${domain}/`, accept: 'text/html', errorCode: null, errorMessage: null, headers: { server: 'cloudflare' },
    setCookieNames: [], bodySha256: 'ab'.repeat(32), bodyBytes: 1200, bodyTruncated: false, textChars: 800, timingMs: 120, redirects: [],
    finalUrl: `https://${domain}/`, vendors: ['Cloudflare'], markers: [],
  };
  return [
    { ...base, id: 'ev-1', key: 'control:browser', userAgent: 'Mozilla/5.0', status: 200, title: 'Home', outcome: 'pass' },
    { ...base, id: 'ev-2', key: 'grid:GPTBot', userAgent: 'GPTBot/1.2', status: 403, title: 'Forbidden', outcome: 'block' },
  ];
}

export interface FakeScanner extends SiteScanner {
  calls: string[];
  /** The pinned profile of each call (undefined when none). */
  profiles: Array<string | undefined>;
  /** The owner's intent of each call (undefined when none). */
  intents: Array<ScanIntent | undefined>;
  /** Resolves pending scans (when `gate` is used). */
  release(): void;
}

/** A scanner returning `make(domain)`; with `held: true` every scan waits for release(). */
export function fakeScanner(opts: { make?: (domain: string) => EngineReport; fail?: string; held?: boolean; delayMs?: number } = {}): FakeScanner {
  let open: () => void = () => undefined;
  let gate = opts.held ? new Promise<void>((r) => { open = r; }) : Promise.resolve();
  const calls: string[] = [];
  const profiles: Array<string | undefined> = [];
  const intents: Array<ScanIntent | undefined> = [];
  return {
    calls,
    profiles,
    intents,
    release() { open(); gate = Promise.resolve(); },
    async scan(domain, scanOpts) {
      calls.push(domain);
      profiles.push(scanOpts?.profile);
      intents.push(scanOpts?.intent);
      await gate;
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (opts.fail) throw new Error(opts.fail);
      return { report: (opts.make ?? cannedReport)(domain), evidence: evidenceFor(domain) };
    },
  };
}

/** Resolves every name to a public address except the ones listed. */
export function fakeResolver(special: Record<string, string[] | 'nxdomain'> = {}): Resolver {
  return async (host) => {
    const s = special[host];
    if (s === 'nxdomain') return { ok: false, errorCode: 'DNS_NXDOMAIN', message: `${host} does not resolve` };
    return { ok: true, addresses: s ?? ['93.184.215.14'], source: 'static' };
  };
}

export interface SteppedScanner extends SiteScanner {
  calls: string[];
  /** Lets the scans held now go on past their first phases (later ones hold again). */
  release(): void;
}

/**
 * A scanner that reports progress as the engine does: robots.txt and the first grid counts,
 * then (held until release()) the rest of every phase in order, then the canned report.
 */
export function steppedScanner(): SteppedScanner {
  let open: () => void = () => undefined;
  let gate = new Promise<void>((r) => { open = r; });
  const calls: string[] = [];
  return {
    calls,
    // Lets the scans held now go on; later scans hold again.
    release() {
      open();
      gate = new Promise<void>((r) => { open = r; });
    },
    async scan(domain, scanOpts) {
      calls.push(domain);
      const tell = scanOpts?.onProgress ?? (() => undefined);
      tell({ phase: 'robots', status: 'running', done: 0, total: 2 });
      tell({ phase: 'grid-networkA', status: 'running', done: 0, total: 3 });
      tell({ phase: 'grid-networkB', status: 'running', done: 0, total: 3 });
      tell({ phase: 'files', status: 'running', done: 0, total: 2 });
      tell({ phase: 'robots', status: 'done', done: 2, total: 2 });
      tell({ phase: 'grid-networkA', status: 'running', done: 1, total: 3 });
      await gate;
      for (const n of [2, 3]) tell({ phase: 'grid-networkA', status: n === 3 ? 'done' : 'running', done: n, total: 3 });
      for (const n of [1, 2, 3]) tell({ phase: 'grid-networkB', status: n === 3 ? 'done' : 'running', done: n, total: 3 });
      for (const n of [1, 2]) tell({ phase: 'files', status: n === 2 ? 'done' : 'running', done: n, total: 2 });
      tell({ phase: 'followups', status: 'running', done: 0, total: 1 });
      tell({ phase: 'followups', status: 'done', done: 1, total: 1 });
      tell({ phase: 'scoring', status: 'running', done: 0, total: 1 });
      tell({ phase: 'scoring', status: 'done', done: 1, total: 1 });
      return { report: cannedReport(domain), evidence: evidenceFor(domain) };
    },
  };
}
