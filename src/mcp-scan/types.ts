/**
 * Shapes of the MCP-server scanner (mcp.md §9). Probing gathers an immutable Evidence snapshot;
 * checks are pure functions of it. The report and its parts are the contract's own types
 * (openapi.yaml McpServerReport, McpCheck, McpToolItem, McpConformance, generated into
 * generated/api-types.ts), never a hand copy: a change of the contract reaches the scanner through
 * `npm run codegen` (drift caught by `codegen:check`) and the type checker.
 */
import type { components } from '../../generated/api-types.ts';
import type { ProbeRequest, ProbeResult } from '../net/egress.ts';

type Schemas = components['schemas'];

/** The slice of src/net/egress.ts the scanner needs: one guarded fetch, never throwing. */
export interface McpEgress {
  fetch(req: ProbeRequest): Promise<ProbeResult>;
}

export type CheckResult = Schemas['McpCheck'];
export type CheckStatus = CheckResult['status'];
export type InconclusiveReason = NonNullable<CheckResult['reason']>;
export type Level = CheckResult['level'];
export type CheckEvidence = NonNullable<CheckResult['evidence']>;

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
  format: NonNullable<McpServerReport['manifest']>['format'];
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

export type McpToolItem = Schemas['McpToolItem'];

/** One required conformance-suite scenario as the scanner judges it (openapi.yaml ConformanceScenario). */
export type ConformanceScenario = Schemas['ConformanceScenario'];
export type ConformanceStatus = ConformanceScenario['status'];
export type ConformanceReport = Schemas['McpConformance'];

/** The report as openapi.yaml McpServerReport (the API's, with scanId, archive state and link). */
export type McpServerReport = Schemas['McpServerReport'];

/** The report as the scanner makes it: McpServerReport minus what the API layer adds (scanId, archived, reportUrl). */
export type McpScanReport = Omit<McpServerReport, 'scanId' | 'archived' | 'reportUrl'>;

/**
 * The MCP scanner's probe set and checklist. 1.1.0: resources/list and prompts/list (for a
 * declared capability, budget allowing) and the conformance mapping.
 */
export const SCANNER_VERSION = '1.1.0';
