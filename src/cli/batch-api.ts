/**
 * The batch operations as the CLI uses them, through the generated typed client with the
 * partner key as its bearer (openapi.yaml's partnerKey scheme). Every answer is checked with the
 * generated validators before it is trusted, and the results are read as a stream of NDJSON
 * lines, one row at a time, so a 10,000-domain batch is never held whole.
 */
import { ajvSummary, describeError, friendlyWait, openConnection, type ApiErrorBody } from './api.ts';
import type { components } from '../../generated/api-types.ts';
import { validateBatch, validateBatchAccepted, validateBatchResultRow, validateError } from '../../generated/validators.js';
import type { ProfileName } from './args.ts';
import type { Env } from './proxy-env.ts';

export type BatchAccepted = components['schemas']['BatchAccepted'];
export type Batch = components['schemas']['Batch'];
export type BatchResultRow = components['schemas']['BatchResultRow'];
type Failure = { ok: false; status?: number; message: string };

const SMALL_TIMEOUT_MS = 30_000;
/** Parsing and paying for 10,000 domains on a busy service takes longer than a small read. */
const SUBMIT_TIMEOUT_MS = 120_000;

export interface BatchApi {
  create(body: string, contentType: 'text/csv' | 'text/plain', query: { profile?: ProfileName; label?: string }): Promise<{ ok: true; accepted: BatchAccepted } | Failure>;
  get(batchId: string): Promise<{ ok: true; batch: Batch } | Failure>;
  /** The rows in submission order, each validated; a row the CLI cannot read ends the stream with an error. */
  results(batchId: string): AsyncGenerator<BatchResultRow, void>;
  close(): Promise<void>;
}

const REFUSALS: Record<number, string> = {
  400: 'the API did not accept the batch',
  401: 'the API key was refused (unknown or revoked); check --key or AGENT_READINESS_KEY',
  404: 'no such batch for this key',
  413: 'the file is larger than the API takes (1 MiB); split it',
  415: 'the API does not take this kind of file',
};

export function connectBatchApi(baseUrl: string, key: string, env: Env, version: string): BatchApi {
  const { client, dispatcher, unreachable } = openConnection(baseUrl, env, version);
  const auth = { authorization: `Bearer ${key}` };

  function refused(status: number, body: unknown, headers: Headers): Failure {
    const error: ApiErrorBody | undefined = validateError(body) ? body : undefined;
    const said = error ? describeError(error) : `HTTP ${status} without an error body`;
    if (status === 429) {
      const wait = Number(headers.get('retry-after'));
      const refill = Number.isFinite(wait) && wait > 0 ? ` The budget refills in ${friendlyWait(wait)}.` : '';
      return { ok: false, status, message: `over the key's daily budget (HTTP 429): ${said.replace(/\.$/, '')}.${refill}` };
    }
    return { ok: false, status, message: `${REFUSALS[status] ?? 'the API refused'} (HTTP ${status}): ${said}` };
  }

  return {
    async create(body, contentType, query) {
      let r;
      try {
        r = await client.POST('/batches', {
          params: { query },
          // The raw file goes as it is: the service parses CSV and lines and names the rejected ones by line.
          body: body as never,
          bodySerializer: (b: unknown) => b as string,
          headers: { ...auth, 'content-type': contentType },
          signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
        });
      } catch (err) {
        return { ok: false, message: unreachable(err) };
      }
      const status = r.response.status;
      if (status !== 202) return refused(status, r.error, r.response.headers);
      if (!validateBatchAccepted(r.data)) return { ok: false, status, message: `the API accepted the batch with an answer this CLI does not understand (${ajvSummary(validateBatchAccepted.errors)}); update the CLI or check --api` };
      return { ok: true, accepted: r.data };
    },

    async get(batchId) {
      let r;
      try {
        r = await client.GET('/batches/{batchId}', { params: { path: { batchId } }, headers: auth, signal: AbortSignal.timeout(SMALL_TIMEOUT_MS) });
      } catch (err) {
        return { ok: false, message: unreachable(err) };
      }
      const status = r.response.status;
      if (status !== 200) return refused(status, r.error, r.response.headers);
      if (!validateBatch(r.data)) return { ok: false, status, message: `the API answered with a batch this CLI does not understand (${ajvSummary(validateBatch.errors)})` };
      return { ok: true, batch: r.data };
    },

    async *results(batchId) {
      let r;
      try {
        r = await client.GET('/batches/{batchId}/results', {
          params: { path: { batchId }, query: { format: 'ndjson' } }, headers: { ...auth, accept: 'application/x-ndjson' }, parseAs: 'stream',
        });
      } catch (err) {
        throw new Error(unreachable(err));
      }
      const status = r.response.status;
      if (status !== 200 || !r.response.body) {
        const text = await r.response.text().catch(() => '');
        let body: unknown;
        try { body = JSON.parse(text); } catch { body = undefined; }
        throw new Error(refused(status, body, r.response.headers).message);
      }
      const decoder = new TextDecoder();
      let buffered = '';
      let line = 0;
      const parse = (text: string): BatchResultRow => {
        line += 1;
        let row: unknown;
        try { row = JSON.parse(text); } catch { row = undefined; }
        if (!validateBatchResultRow(row)) throw new Error(`the API's results line ${line} is not a row this CLI understands (${ajvSummary(validateBatchResultRow.errors)})`);
        return row;
      };
      for await (const chunk of r.response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let nl;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const text = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (text.trim()) yield parse(text);
        }
      }
      buffered += decoder.decode();
      if (buffered.trim()) yield parse(buffered);
    },

    close: () => dispatcher.close(),
  };
}
