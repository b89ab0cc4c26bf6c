/**
 * The MCP-server scanner behind POST /scan-mcp.
 *
 *   const v = validateMcpTarget(target, { scannerZone });   // 400 / 422 before any I/O
 *   const report = await scanMcpServer(target, { egress });  // never throws for network trouble
 *
 * The API layer adds scanId, archived and reportUrl; an endpoint with a
 * query string (`v.hasQuery`) must never be persisted.
 */
import { MCP_CHECKS } from './checks/index.ts';
import { gather } from './gather.ts';
import { Prober } from './probe.ts';
import { buildReport } from './report.ts';
import { validateMcpTarget } from './target.ts';
import type { CheckDef, CheckResult, Evidence, McpEgress, McpScanReport, Outcome } from './types.ts';
import { SCANNER_VERSION } from './types.ts';

export { validateMcpTarget, type TargetVerdict } from './target.ts';
export { MCP_CHECKS } from './checks/index.ts';
export type { McpScanReport, McpServerReport, CheckResult, McpEgress } from './types.ts';
export { SCANNER_VERSION } from './types.ts';
export { mapConformance } from './conformance.ts';
export type { ConformanceReport, ConformanceScenario, ConformanceStatus } from './types.ts';

export interface ScanMcpOptions {
  egress: McpEgress;
  now?: () => Date;
  scannerZone?: string;
  /** Sent as clientInfo and in the User-Agent. */
  userAgent?: string;
  /** About 15 serial requests (mcp.md §9); pagination uses what is left. */
  maxRequests?: number;
  timeoutMs?: number;
  totalBudgetMs?: number;
  maxBodyBytes?: number;
}

export class McpTargetError extends Error {
  override name = 'McpTargetError';
  readonly status: 400 | 422;
  readonly hint: string;
  constructor(status: 400 | 422, message: string, hint: string) {
    super(message);
    this.status = status;
    this.hint = hint;
  }
}

export async function scanMcpServer(target: string, opts: ScanMcpOptions): Promise<McpScanReport> {
  const v = validateMcpTarget(target, opts.scannerZone ? { scannerZone: opts.scannerZone } : {});
  if (!v.ok) throw new McpTargetError(v.status, v.error, v.hint);
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const started = performance.now();
  const deadline = AbortSignal.timeout(opts.totalBudgetMs ?? 45_000);
  const prober = new Prober({
    egress: opts.egress,
    userAgent: opts.userAgent ?? `agent-readiness-mcp-scanner/${SCANNER_VERSION}`,
    maxRequests: opts.maxRequests ?? 16,
    timeoutMs: opts.timeoutMs ?? 8000,
    maxBodyBytes: opts.maxBodyBytes ?? 1024 * 1024,
    deadline,
  });
  const ev = await gather({
    input: target.trim(), host: v.host, url: v.url,
    clientInfo: { name: 'agent-readiness-mcp-scanner', version: SCANNER_VERSION },
    ...(opts.scannerZone ? { scannerZone: opts.scannerZone } : {}),
  }, prober);
  const checks: CheckResult[] = MCP_CHECKS.map((c) => {
    const o = evaluateSafely(c, ev);
    return { id: c.id, title: c.title, status: o.status, reason: o.reason ?? null, level: c.level, detail: o.detail, ...(o.evidence ? { evidence: o.evidence } : {}), spec: c.spec };
  });
  return buildReport(ev, checks, startedAt, performance.now() - started);
}

/** A check that trips over odd evidence says so instead of failing the whole scan (or the server). */
function evaluateSafely(c: CheckDef, ev: Evidence): Outcome {
  try {
    return c.evaluate(ev);
  } catch (err) {
    return { status: 'inconclusive', reason: 'ambiguous', detail: `The evidence could not be evaluated: ${(err as Error).message.slice(0, 200)}` };
  }
}
