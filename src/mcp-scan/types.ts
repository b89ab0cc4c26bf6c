/**
 * Shapes of the MCP-server scanner (mcp.md §9, openapi.yaml McpServerReport).
 * Probing gathers an immutable Evidence snapshot; checks are pure functions of it.
 */
import type { ProbeRequest, ProbeResult } from '../net/egress.ts';

/** The slice of src/net/egress.ts the scanner needs: one guarded fetch, never throwing. */
export interface McpEgress {
  fetch(req: ProbeRequest): Promise<ProbeResult>;
}

export type CheckStatus = 'pass' | 'fail' | 'inconclusive';
export type InconclusiveReason = 'unreachable' | 'timeout' | 'policy' | 'not_applicable' | 'blocked' | 'legacy_transport' | 'ambiguous';
export type Level = 'must' | 'should' | 'may';

export interface CheckEvidence {
  request?: string;
  httpStatus?: number;
  contentType?: string;
  snippet?: string;
}

export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  reason: InconclusiveReason | null;
  level: Level;
  detail: string;
  evidence?: CheckEvidence;
  spec: string;
}

/** What a check's evaluate() returns; id, title, level and spec come from its definition. */
export interface Outcome {
  status: CheckStatus;
  reason?: InconclusiveReason;
  detail: string;
  evidence?: CheckEvidence;
}

export interface CheckDef {
  id: string;
  title: string;
  level: Level;
  /** The specification section the check enforces. */
  spec: string;
  evaluate(ev: Evidence): Outcome;
}

/** A JSON-RPC reply found in a response body (plain JSON or an SSE `message` event). */
export interface RpcReply {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** How one HTTP exchange ended, in the terms every check reasons with. */
export type Verdict =
  | 'rpc'          // a JSON-RPC response with the id we sent
  | 'rpc-other'    // JSON-RPC-shaped, but not the reply to our id (wrong id, id null)
  | 'policy'       // 401, or 403 with a Bearer challenge: access policy, not a fault (mcp.md §5)
  | 'blocked'      // WAF / bot-challenge page
  | 'unreachable'  // DNS, connect, TLS, reset
  | 'timeout'
  | 'skipped'      // budget exhausted: never sent
  | 'http';        // any other HTTP answer

export interface Exchange {
  /** e.g. `POST /mcp tools/list`. */
  label: string;
  verdict: Verdict;
  status: number | null;
  headers: Record<string, string>;
  contentType: string;
  /** Body as text, capped. */
  text: string;
  isSse: boolean;
  rpc: RpcReply | null;
  errorCode: string | null;
}

export interface ManifestEvidence {
  url: string;
  format: 'sep-1649' | 'server-card-v1' | 'ai-catalog' | 'server.json' | 'unknown';
  endpoint: string | null;
  authRequired: boolean | null;
  name: string | null;
  version: string | null;
  versions: string[];
}

export interface AuthEvidence {
  challenge: string | null;
  resourceMetadataUrl: string | null;
  /** Where the PRM document was found, if anywhere. */
  prmUrl: string | null;
  prm: Record<string, unknown> | null;
  prmProbes: Exchange[];
}

export interface Evidence {
  input: string;
  endpoint: string | null;
  resolvedVia: 'input-url' | 'manifest' | 'convention' | null;
  /** Every initialize attempt, one per candidate endpoint. */
  attempts: Exchange[];
  manifestProbes: Exchange[];
  manifest: ManifestEvidence | null;
  init: Exchange | null;
  /** GET on the endpoint after a non-MCP POST answer: the HTTP+SSE fallback (spec 2025-11-25 basic/transports#backwards-compatibility). */
  legacySse: Exchange | null;
  negotiatedVersion: string | null;
  sessionId: string | null;
  notification: Exchange | null;
  badVersionInit: Exchange | null;
  discover: Exchange | null;
  toolsPages: Exchange[];
  tools: unknown[] | null;
  cursorLoop: boolean;
  pagesCapped: boolean;
  versionHeader: Exchange | null;
  methodNotFound: Exchange | null;
  invalidParams: Exchange | null;
  parseError: Exchange | null;
  get: Exchange | null;
  /** resources/list and prompts/list, sent only for a declared capability with budget to spare (conformance mapping). */
  resourcesList?: Exchange | null;
  promptsList?: Exchange | null;
  auth: AuthEvidence | null;
  requestCount: number;
}

export interface McpToolItem {
  name: string;
  title: string | null;
  descriptionLength: number;
  params: number;
  required: number;
  readOnlyHint: boolean | null;
  destructiveHint: boolean | null;
  idempotentHint: boolean | null;
  openWorldHint: boolean | null;
  hasOutputSchema: boolean;
  issues: string[];
}

/** One required conformance-suite scenario as the scanner judges it (openapi.yaml ConformanceScenario). */
export type ConformanceStatus = 'pass' | 'fail' | 'not-applicable' | 'not-verified';
export interface ConformanceScenario { scenario: string; status: ConformanceStatus; detail: string; checks: string[] }
export interface ConformanceReport {
  suite: string;
  requirements: string;
  version: string;
  source: { repository: string; path: string; commit: string };
  scenarios: ConformanceScenario[];
  counts: { pass: number; fail: number; notApplicable: number; notVerified: number };
}

/** The report as openapi.yaml McpServerReport, minus what the API layer adds (scanId, archived, reportUrl). */
export interface McpScanReport {
  kind: 'mcp-server';
  target: { input: string; endpoint: string | null; resolvedVia: Evidence['resolvedVia'] };
  headline: {
    reachable: boolean;
    access: 'open' | 'auth-required' | 'blocked' | 'unknown';
    transport: 'streamable-http' | 'legacy-sse' | 'unknown';
    era: 'legacy' | 'modern' | 'dual' | 'unknown';
    protocolVersion: string | null;
    supportedVersions: string[] | null;
    sessions: 'stateless' | 'stateful' | null;
    toolCount: number | null;
    checks: { pass: number; fail: number; inconclusive: number };
  };
  server: {
    name: string | null; title: string | null; version: string | null; description: string | null;
    websiteUrl: string | null; iconCount: number; instructions: string | null; capabilities: string[];
  } | null;
  manifest: { url: string; format: ManifestEvidence['format']; declared: { endpoint: string | null; authRequired: boolean | null } } | null;
  auth: { challenge: string | null; resourceMetadataUrl: string | null; authorizationServers: string[]; scopes: string[] } | null;
  tools: {
    count: number; pages: number; items: McpToolItem[];
    withDescription: number; withAnnotations: number; readOnly: number; schemaIssues: number;
  };
  checks: CheckResult[];
  /** Our checklist mapped to the conformance suite's required 2026-07-28 server scenarios (conformance.ts). */
  conformance?: ConformanceReport;
  startedAt: string;
  durationMs: number;
  scannerVersion: string;
}

export interface McpServerReport extends McpScanReport {
  scanId: string;
  archived: boolean;
  reportUrl?: string;
}

/**
 * The MCP scanner's probe set and checklist. 1.1.0: resources/list and prompts/list (for a
 * declared capability, budget allowing) and the conformance mapping.
 */
export const SCANNER_VERSION = '1.1.0';
