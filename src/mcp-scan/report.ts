/** Evidence + check results → the McpServerReport body (openapi.yaml, mcp.md "Report shape"). */
import { parseChallenge } from './auth.ts';
import { mapConformance } from './conformance.ts';
import { MODERN_VERSION } from './gather.ts';
import { schemaIssue } from './schema.ts';
import { isObject } from './checks/util.ts';
import type { CheckResult, Evidence, McpScanReport, McpToolItem } from './types.ts';
import { SCANNER_VERSION } from './types.ts';

export function buildReport(ev: Evidence, checks: CheckResult[], startedAt: Date, durationMs: number): McpScanReport {
  const initResult = ev.init?.verdict === 'rpc' ? ev.init.rpc?.result ?? null : null;
  const discover = ev.discover?.verdict === 'rpc' && Array.isArray(ev.discover.rpc?.result?.supportedVersions) ? ev.discover.rpc!.result! : null;
  const supported = discover ? (discover.supportedVersions as unknown[]).filter((v): v is string => typeof v === 'string') : null;
  const open = !!ev.endpoint && (ev.init?.verdict === 'rpc' || ev.init?.verdict === 'rpc-other' || !!ev.legacySse);
  const exchanges = [...ev.manifestProbes, ...ev.attempts, ev.legacySse].filter((x) => x !== null);
  const counts = { pass: 0, fail: 0, inconclusive: 0 };
  for (const c of checks) counts[c.status] += 1;
  const tools = ev.tools?.filter(isObject) ?? [];
  return {
    kind: 'mcp-server',
    target: { input: ev.input, endpoint: ev.endpoint, resolvedVia: ev.resolvedVia },
    headline: {
      reachable: exchanges.some((x) => x.status !== null),
      access: ev.init?.verdict === 'policy' ? 'auth-required' : ev.init?.verdict === 'blocked' ? 'blocked' : open ? 'open' : 'unknown',
      transport: ev.legacySse ? 'legacy-sse' : open ? 'streamable-http' : 'unknown',
      era: discover && initResult ? 'dual' : discover ? 'modern' : initResult || ev.legacySse ? 'legacy' : 'unknown',
      protocolVersion: ev.negotiatedVersion ?? (supported?.includes(MODERN_VERSION) ? MODERN_VERSION : null),
      supportedVersions: supported,
      sessions: open && !ev.legacySse && initResult ? (ev.sessionId ? 'stateful' : 'stateless') : null,
      toolCount: ev.tools === null ? null : tools.length,
      checks: counts,
    },
    server: serverOf(initResult, discover),
    manifest: ev.manifest ? { url: ev.manifest.url, format: ev.manifest.format, declared: { endpoint: ev.manifest.endpoint, authRequired: ev.manifest.authRequired } } : null,
    auth: ev.auth ? {
      challenge: ev.auth.challenge?.slice(0, 500) ?? null,
      resourceMetadataUrl: ev.auth.resourceMetadataUrl,
      authorizationServers: strings(ev.auth.prm?.authorization_servers),
      scopes: strings(ev.auth.prm?.scopes_supported).length ? strings(ev.auth.prm?.scopes_supported)
        : (parseChallenge(ev.auth.challenge ?? '').params.scope ?? '').split(/\s+/).filter(Boolean),
    } : null,
    tools: toolSummary(tools, ev.toolsPages.length),
    checks,
    conformance: mapConformance(ev, checks),
    startedAt: startedAt.toISOString(),
    durationMs: Math.max(0, Math.round(durationMs)),
    scannerVersion: SCANNER_VERSION,
  };
}

function serverOf(init: Record<string, unknown> | null, discover: Record<string, unknown> | null): McpScanReport['server'] {
  const meta = isObject(discover?._meta) ? discover._meta['io.modelcontextprotocol/serverInfo'] : undefined;
  const info = isObject(init?.serverInfo) ? init.serverInfo : isObject(meta) ? meta : null;
  if (!info && !init && !discover) return null;
  const caps = isObject(init?.capabilities) ? init.capabilities : isObject(discover?.capabilities) ? discover.capabilities : {};
  const instructions = str(init?.instructions) ?? str(discover?.instructions);
  return {
    name: str(info?.name), title: str(info?.title), version: str(info?.version), description: str(info?.description),
    websiteUrl: str(info?.websiteUrl), iconCount: Array.isArray(info?.icons) ? info.icons.length : 0,
    instructions: instructions ? instructions.slice(0, 2048) : null,
    capabilities: Object.keys(caps),
  };
}

function toolSummary(tools: Record<string, unknown>[], pages: number): McpScanReport['tools'] {
  const items = tools.map(toolItem);
  return {
    count: items.length, pages, items,
    withDescription: items.filter((t) => t.descriptionLength > 0).length,
    withAnnotations: tools.filter((t) => isObject(t.annotations)).length,
    readOnly: items.filter((t) => t.readOnlyHint === true).length,
    schemaIssues: items.filter((t) => t.issues.some((i) => i.includes('Schema'))).length,
  };
}

function toolItem(t: Record<string, unknown>): McpToolItem {
  const input = isObject(t.inputSchema) ? t.inputSchema : {};
  const ann = isObject(t.annotations) ? t.annotations : {};
  const hint = (k: string): boolean | null => (typeof ann[k] === 'boolean' ? ann[k] as boolean : null);
  const issues = [schemaIssue(t.inputSchema, 'inputSchema'), t.outputSchema === undefined ? null : schemaIssue(t.outputSchema, 'outputSchema')]
    .filter((i): i is string => i !== null);
  if (typeof t.name !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(t.name)) issues.push('name breaks the naming rules');
  if (typeof t.description !== 'string' || !t.description.trim()) issues.push('no description');
  return {
    name: typeof t.name === 'string' ? t.name : JSON.stringify(t.name ?? null),
    title: str(t.title) ?? str(ann.title),
    descriptionLength: typeof t.description === 'string' ? t.description.trim().length : 0,
    params: isObject(input.properties) ? Object.keys(input.properties).length : 0,
    required: Array.isArray(input.required) ? input.required.length : 0,
    readOnlyHint: hint('readOnlyHint'), destructiveHint: hint('destructiveHint'),
    idempotentHint: hint('idempotentHint'), openWorldHint: hint('openWorldHint'),
    hasOutputSchema: t.outputSchema !== undefined,
    issues,
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
