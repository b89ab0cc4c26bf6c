/**
 * Shapes shared by our MCP server (POST/GET /mcp).
 *
 * The router never talks to storage or the scanner directly: the lead's app
 * passes in the same service functions the REST handlers use, so lead policy,
 * coalescing and rate limits are enforced in exactly one place.
 */

export interface LeadInput {
  name: string;
  email: string;
  phone?: string | null;
  role?: string | null;
}

/** Error body of the REST surface (service spec "Error object"). */
export interface ServiceErrorBody {
  error: string;
  hint?: string;
  domain?: string;
  detail?: string;
  retryAfterSeconds?: number;
  [key: string]: unknown;
}

export type ServiceResult =
  | { ok: true; status: 200; body: Record<string, unknown> }
  | { ok: false; status: number; body: ServiceErrorBody };

export interface ScanSiteInput {
  domain: string;
  lead: LeadInput;
  fresh?: boolean;
  profile?: string;
  intent?: Record<string, string>;
  /** A rubric a scan may be scored with; the current one when absent. */
  rubric?: string;
  clientIp: string;
}

export interface McpDeps {
  /** Same lead policy, coalescing and rate limits as POST /scan. */
  scanSite(input: ScanSiteInput): Promise<ServiceResult>;
  /** An archived report (site or MCP-server scan), or null when unknown. */
  getReport(scanId: string): Promise<object | null>;
  /** The check catalog, as served by GET /api/checks. */
  /** The catalog of a published rubric (the current one when absent). */
  listChecks(rubric?: string): object;
  /** Public origin of the service, e.g. https://agent-readiness.example; used for links and Host validation. */
  baseUrl: string;
  /** Extra Host names accepted on /mcp (beyond the baseUrl host and loopback names), e.g. behind a proxy. */
  allowedHosts?: string[];
  /** GET /mcp stream lifetime and keepalive interval; injectable so tests need not wait a minute. */
  sse?: { lifetimeMs?: number; keepaliveMs?: number };
}

/** What a tool handler knows about the HTTP request that carried the call. */
export interface CallContext {
  clientIp: string;
}

export const SERVER_NAME = 'agent-readiness';
export const SERVER_VERSION = '1.0.0';

/** The 2025 revisions we speak (newest first); the SDK's own list, minus its 2024-10-07 pre-release. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** The modern revision answered through server/discover and `_meta` (spec 2026-07-28 basic/versioning). */
export const MODERN_VERSION = '2026-07-28';
/** Every revision accepted on the wire, newest first; named in version errors as `data.supported`. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export const INSTRUCTIONS = [
  'agent-readiness measures how a website treats AI agents: robots.txt versus what its edge really does, from two networks.',
  'Call list_checks to see what is measured. Call scan_site with a bare domain plus your contact name and email',
  '(required for every scan, as on the web form); a scan takes 10 to 30 seconds, and a repeat within 45 seconds',
  'may return the just-finished result unless fresh is true. Call get_report with a scanId to fetch an archived report.',
  'Results are tri-state: inconclusive checks are never counted against a site.',
].join(' ');
