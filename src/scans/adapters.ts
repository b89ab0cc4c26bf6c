// Small adapters so other surfaces reuse the scan service without knowing its internals:
// the MCP server's scan_site / get_report tools, and the report page's why/fix lookup from
// the engine's catalog (GET /api/checks).
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { CatalogEntry, CatalogLookup } from '../report/sections.ts';
import { loadArchivedReport } from './archive.ts';
import type { ScanService } from './service.ts';
import type { Profile } from './types.ts';

/** Structurally the MCP layer's ServiceResult: a body, or an error body with its HTTP status. */
export type ServiceResult =
  | { ok: true; status: 200; body: Record<string, unknown> }
  | { ok: false; status: number; body: { error: string; [key: string]: unknown } };

export interface McpScanInput {
  domain: string;
  lead: { name: string; email: string; phone?: string | null; role?: string | null };
  fresh?: boolean;
  profile?: string;
  /** Judged by the scan service against the contract's ScanIntent, as on POST /scan. */
  intent?: Record<string, string>;
  rubric?: string;
  clientIp: string;
}

/** McpDeps.scanSite and McpDeps.getReport over the same service as POST /scan. */
export function mcpScanDeps(ctx: AppContext, scans: ScanService): {
  scanSite(input: McpScanInput): Promise<ServiceResult>;
  getReport(scanId: string): Promise<object | null>;
} {
  return {
    async scanSite(input) {
      try {
        const out = await scans.scan({
          domain: input.domain, lead: input.lead, clientIp: input.clientIp,
          ...(input.fresh === true ? { fresh: true } : {}),
          ...(input.profile ? { profile: input.profile as Profile } : {}),
          ...(input.intent ? { intent: input.intent } : {}),
          ...(input.rubric ? { rubric: input.rubric } : {}),
        });
        return { ok: true, status: 200, body: out.body as unknown as Record<string, unknown> };
      } catch (err) {
        if (err instanceof AppError) return { ok: false, status: err.status, body: { ...err.body } };
        throw err;
      }
    },
    async getReport(scanId) {
      if (!/^[0-9a-f-]{36}$/i.test(scanId)) return null;
      return (await loadArchivedReport(ctx.db, ctx.config.baseUrl, scanId.toLowerCase()))?.report ?? null;
    },
  };
}

/** why/fix per check id from the catalog of GET /api/checks (src/scanner/catalog.ts buildCatalog()). */
export function catalogLookup(catalog: { checks: ReadonlyArray<{ id: string } & CatalogEntry> }): CatalogLookup {
  const byId = new Map(catalog.checks.map((c) => [c.id, { name: c.name, why: c.why, fix: c.fix }]));
  return (id) => byId.get(id);
}
