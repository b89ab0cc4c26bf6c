/**
 * The hosted API as the CLI sees it: the generated typed client over undici
 * (so HTTPS_PROXY/HTTP_PROXY/NO_PROXY apply to the API as they do to probes),
 * and every answer checked with the generated validators before it is trusted.
 * Failures come back as values with a sentence a person can act on.
 */
import { Agent, ProxyAgent, fetch as undiciFetch, Request as UndiciRequest, type Dispatcher } from 'undici';
import { createApiClient, type ApiClient } from '../../generated/client.ts';
import type { components } from '../../generated/api-types.ts';
import { validateCheckCatalog, validateCliVantageAttached, validateError, validateReportDiff, validateScanReport } from '../../generated/validators.js';
import { describeProxy, proxyFor, type Env } from './proxy-env.ts';

export type ScanReport = components['schemas']['ScanReport'];
export type ScanRequest = components['schemas']['ScanRequest'];
export type Observation = components['schemas']['Observation'];
export type ApiErrorBody = components['schemas']['Error'];

export type ScanAnswer =
  | { ok: true; report: ScanReport }
  | { ok: false; message: string; status?: number; retryAfterSeconds?: number; error?: ApiErrorBody };

export type CatalogAnswer =
  | { ok: true; rubricVersion: string; ids: string[]; fixes: Map<string, string> }
  | { ok: false; message: string };

export type ReportDiff = components['schemas']['ReportDiff'];
export type DiffAnswer = { ok: true; diff: ReportDiff } | { ok: false; status?: number; message: string };

export type UploadAnswer =
  | { ok: true; attached: number; reportUrl: string }
  | { ok: false; status?: number; message: string };

/** Long enough for a scan (10-30 s on the service, its deadline is 25 s) plus the network. */
const SCAN_TIMEOUT_MS = 120_000;
const SMALL_TIMEOUT_MS = 15_000;

export interface Api {
  readonly baseUrl: string;
  scan(body: ScanRequest): Promise<ScanAnswer>;
  /** Fix text per check id from GET /api/checks; an empty map when the catalog cannot be read (fixes are a courtesy). */
  fixes(rubric?: string): Promise<Map<string, string>>;
  /** GET /api/checks (of `rubric`, else the current one) for the per-check gates, which cannot run without it. */
  catalog(rubric?: string): Promise<CatalogAnswer>;
  upload(scanId: string, body: components['schemas']['CliVantageUpload']): Promise<UploadAnswer>;
  /** GET /r/{scanId}/diff/{otherScanId} as JSON. */
  diff(scanId: string, otherScanId: string): Promise<DiffAnswer>;
  close(): Promise<void>;
}

/** The typed client over undici (proxy-aware), and a sentence for an API that cannot be reached. */
export interface Connection { client: ApiClient; dispatcher: Dispatcher; unreachable(err: unknown): string }

export function openConnection(baseUrl: string, env: Env, version: string): Connection {
  const proxy = proxyFor(baseUrl, env);
  const dispatcher: Dispatcher = proxy ? new ProxyAgent(proxy) : new Agent();
  const client: ApiClient = createApiClient(baseUrl, {
    // The generated client builds Request objects; undici's own classes keep the dispatcher option usable.
    Request: UndiciRequest as unknown as typeof Request,
    fetch: ((req: Request) => undiciFetch(req as unknown as UndiciRequest, { dispatcher })) as unknown as typeof fetch,
    headers: { 'user-agent': `agent-readiness-cli/${version}` },
  });
  const via = proxy ? ` through ${describeProxy(proxy)}` : '';
  return {
    client,
    dispatcher,
    unreachable(err) {
      const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
      const why = e.name === 'TimeoutError' ? 'no answer in time' : e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
      return `could not reach the API at ${baseUrl}${via} (${why}). Is it running? Set it with --api or AGENT_READINESS_API.`;
    },
  };
}

export function connectApi(baseUrl: string, env: Env, version: string): Api {
  const { client, dispatcher, unreachable } = openConnection(baseUrl, env, version);

  return {
    baseUrl,
    async scan(body) {
      let r;
      try {
        r = await client.POST('/scan', { body, signal: AbortSignal.timeout(SCAN_TIMEOUT_MS) });
      } catch (err) {
        return { ok: false, message: unreachable(err) };
      }
      const status = r.response.status;
      if (status === 200) {
        if (!validateScanReport(r.data)) {
          return { ok: false, status, message: `the API at ${baseUrl} answered with a report this CLI does not understand (${ajvSummary(validateScanReport.errors)}); update the CLI or check --api` };
        }
        return { ok: true, report: r.data };
      }
      const error = validateError(r.error) ? r.error : undefined;
      const said = error ? describeError(error) : `HTTP ${status} without an error body`;
      if (status === 429) {
        const retryAfterSeconds = error?.retryAfterSeconds ?? (Number(r.response.headers.get('retry-after')) || undefined);
        const wait = retryAfterSeconds !== undefined ? ` Wait ${friendlyWait(retryAfterSeconds)} (Retry-After: ${retryAfterSeconds} s) before scanning again.` : '';
        return { ok: false, status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}), ...(error ? { error } : {}), message: `rate limited (HTTP 429): ${said.replace(/\.$/, '')}.${wait}` };
      }
      return { ok: false, status, ...(error ? { error } : {}), message: `the API refused the scan (HTTP ${status}): ${said}` };
    },

    async fixes(rubric) {
      const c = await this.catalog(rubric);
      return c.ok ? c.fixes : new Map();
    },

    async catalog(rubric) {
      try {
        const r = await client.GET('/api/checks', { ...(rubric ? { params: { query: { rubric: rubric as 'rubric-v1.2' } } } : {}), signal: AbortSignal.timeout(SMALL_TIMEOUT_MS) });
        if (r.response.status !== 200) return { ok: false, message: `the check catalog at ${baseUrl}/api/checks answered HTTP ${r.response.status}` };
        if (!validateCheckCatalog(r.data)) return { ok: false, message: `the check catalog at ${baseUrl}/api/checks is not one this CLI understands (${ajvSummary(validateCheckCatalog.errors)})` };
        return { ok: true, rubricVersion: r.data.rubricVersion, ids: r.data.checks.map((c) => c.id), fixes: new Map(r.data.checks.map((c) => [c.id, c.fix])) };
      } catch (err) {
        return { ok: false, message: unreachable(err) };
      }
    },

    async upload(scanId, body) {
      let r;
      try {
        r = await client.POST('/r/{scanId}/cli-vantage', { params: { path: { scanId } }, body, signal: AbortSignal.timeout(SMALL_TIMEOUT_MS) });
      } catch (err) {
        return { ok: false, message: unreachable(err) };
      }
      const status = r.response.status;
      if (status === 200) {
        if (!validateCliVantageAttached(r.data)) return { ok: false, status, message: 'the API answered the upload with something this CLI does not understand' };
        return { ok: true, attached: r.data.attached, reportUrl: r.data.reportUrl };
      }
      const said = validateError(r.error) ? describeError(r.error) : `HTTP ${status}`;
      return { ok: false, status, message: `${UPLOAD_REFUSALS[status] ?? 'the upload was refused'} (HTTP ${status}: ${said})` };
    },

    async diff(scanId, otherScanId) {
      let r;
      try {
        r = await client.GET('/r/{scanId}/diff/{otherScanId}', { params: { path: { scanId, otherScanId }, query: { format: 'json' } }, headers: { accept: 'application/json' }, parseAs: 'json', signal: AbortSignal.timeout(SMALL_TIMEOUT_MS) });
      } catch (err) {
        return { ok: false, message: unreachable(err) };
      }
      const status = r.response.status;
      if (status === 200) {
        if (!validateReportDiff(r.data)) return { ok: false, status, message: `the API at ${baseUrl} answered with a comparison this CLI does not understand (${ajvSummary(validateReportDiff.errors)}); update the CLI or check --api` };
        return { ok: true, diff: r.data as ReportDiff };
      }
      const said = validateError(r.error) ? describeError(r.error) : `HTTP ${status} without an error body`;
      return { ok: false, status, message: `the API could not compare the reports (HTTP ${status}): ${said}` };
    },

    close: () => dispatcher.close(),
  };
}

const UPLOAD_REFUSALS: Record<number, string> = {
  400: 'the upload was not accepted',
  403: 'the upload token was refused',
  404: 'the report is not archived',
  409: 'a user-network vantage is already attached to this report; only one upload per report is kept',
  410: 'the report is older than the 7-day attach window',
  413: 'the upload was too large',
};

export function friendlyWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `about ${Math.ceil(seconds / 60)} min`;
  return `about ${Math.ceil(seconds / 3600)} h`;
}

export function describeError(e: ApiErrorBody): string {
  return [e.error, e.hint, e.detail].filter(Boolean).join(' — ');
}

export function ajvSummary(errors: ReadonlyArray<{ instancePath: string; message?: string }> | null | undefined): string {
  return (errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()).join('; ') || 'invalid';
}
