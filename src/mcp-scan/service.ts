/**
 * POST /scan-mcp as a service: the same lead policy, exclusions and shared
 * rate limits as POST /scan, the target rules, the scan, and the archive
 * write. No email is sent for MCP-server scans (service spec "Events" rule 4).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors.ts';
import { reportUrlFor } from '../scans/archive.ts';
import { excludedError, isExcluded } from '../scans/excluded.ts';
import { checkLead } from '../scans/lead.ts';
import { preflightDns } from '../scans/preflight.ts';
import type { Resolver } from '../scans/types.ts';
import type { RateState, ScanLimits } from '../scans/limits.ts';
import { archiveScan } from '../storage/queries/archiveScan.ts';
import { scanMcpServer, type ScanMcpOptions } from './index.ts';
import { validateMcpTarget } from './target.ts';
import type { McpEgress, McpServerReport } from './types.ts';

export interface McpScanServiceDeps {
  db: Knex;
  log: Logger;
  now: () => Date;
  baseUrl: string;
  excludedDomains: readonly string[];
  scannerZone?: string | undefined;
  limits: ScanLimits;
  egress: McpEgress;
  /** DNS pre-flight shared with POST /scan: names that resolve only internally are a 400, NXDOMAIN too. */
  resolve?: Resolver;
  /** Probe tuning (tests shorten the budget). */
  scan?: Omit<ScanMcpOptions, 'egress' | 'now' | 'scannerZone'>;
}

export interface McpScanOutcome {
  body: McpServerReport;
  headers: Record<string, string>;
}

export class McpScanService {
  private readonly d: McpScanServiceDeps;

  constructor(deps: McpScanServiceDeps) {
    this.d = deps;
  }

  async scan(input: { target: unknown; lead: unknown; clientIp: string }): Promise<McpScanOutcome> {
    const lead = checkLead(input.lead);
    if (typeof input.target !== 'string') throw errors.badRequest('`target` is required.', 'Give https://host/path (port 443) or a bare domain.');
    const v = validateMcpTarget(input.target, this.d.scannerZone ? { scannerZone: this.d.scannerZone } : {});
    if (!v.ok) {
      throw v.status === 422
        ? new AppError('SCANNER_ZONE', { error: v.error, hint: v.hint })
        : new AppError('INVALID_TARGET', { error: v.error, hint: v.hint });
    }
    if (await isExcluded(this.d.db, this.d.excludedDomains, v.host)) throw excludedError(v.host);
    if (this.d.resolve) await preflightDns(v.host, this.d.resolve);
    const rate: RateState = await this.d.limits.consume(v.host, input.clientIp);

    let report;
    try {
      report = await scanMcpServer(input.target, {
        ...this.d.scan, egress: this.d.egress, now: this.d.now,
        ...(this.d.scannerZone ? { scannerZone: this.d.scannerZone } : {}),
      });
    } catch (err) {
      this.d.log.error({ err, host: v.host }, 'mcp scan failed');
      throw errors.scanFailed('internal scanner fault', v.host);
    }

    const scanId = randomUUID();
    // A query string may carry a key or token: such a report lives only in this response,
    // whether the caller typed it or a manifest declared it.
    const queried = v.hasQuery || hasQuery(report.target.endpoint) || hasQuery(report.manifest?.declared?.endpoint ?? null);
    const archived = !queried && await this.archive(scanId, v.host, report, lead);
    const body: McpServerReport = { ...report, scanId, archived, ...(archived ? { reportUrl: reportUrlFor(this.d.baseUrl, scanId) } : {}) };
    return { body, headers: { 'RateLimit-Limit': String(rate.limit), 'RateLimit-Remaining': String(rate.remaining) } };
  }

  /** True only when the row was written: `archived` is authoritative. */
  private async archive(scanId: string, host: string, report: Omit<McpServerReport, 'scanId' | 'archived'>, lead: ReturnType<typeof checkLead>): Promise<boolean> {
    try {
      await archiveScan(this.d.db, {
        id: scanId, kind: 'mcp-server', domain: host, headline: report.headline.access, score: null,
        report: JSON.stringify({ ...report, scanId }), evidence: null, scanned_at: report.startedAt,
        lead_name: lead.name, lead_email: lead.email, lead_phone: lead.phone, lead_role: lead.role, upload_token_hash: null,
      }, []);
      return true;
    } catch (err) {
      this.d.log.error({ err, scanId }, 'mcp report archive write failed');
      return false;
    }
  }
}

function hasQuery(url: string | null): boolean {
  if (!url) return false;
  try {
    return new URL(url).search !== '';
  } catch {
    return false;
  }
}
