/**
 * One HTTP exchange through an undici dispatcher, its body read up to a cap of decoded bytes.
 *
 * Built on undici's handler API (`Dispatcher.dispatch`) rather than `request()`: a scan makes
 * 74 small requests, and `request()` wraps every response in a Readable stream that our reader
 * then iterated asynchronously. Collecting the chunks in the handler cost a quarter less CPU
 * per request (bench/results.md). A compressed body still goes through node's zlib stream, with
 * undici paused while the decoder is full, so a small gzip or brotli bomb cannot inflate past
 * the cap: decoding stops, and the request is aborted, the moment the cap is reached.
 * `stopWhen` lets a caller end early, e.g. an SSE reader that has seen the event it waited for.
 */
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { Dispatcher } from 'undici';

/** How to read a response, decided from its status and headers. */
export interface ReadPlan {
  /** Read and drop the body (a redirect's), up to `maxBytes` raw bytes; past that, abort. */
  discard?: boolean;
  /** Cap of decoded bytes kept. */
  maxBytes: number;
  contentEncoding?: string | undefined;
  stopWhen?: ((bodySoFar: Buffer) => boolean) | undefined;
}

export interface Exchanged {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  truncated: boolean;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip': case 'x-gzip': return createGunzip();
    case 'deflate': return createInflate();
    case 'br': return createBrotliDecompress();
    // Chrome offers zstd (the browser control sends its Accept-Encoding), so its answers must decode.
    case 'zstd': return createZstdDecompress();
    default: return undefined; // identity or unknown: keep the bytes as sent
  }
}

/** Ends reading before the response does; the request is then aborted (undici closes the connection). */
const STOPPED = new Error('stopped reading');

/**
 * Sends `opts` and reads the answer as `plan(status, headers)` says. Resolves with what was read;
 * rejects with undici's error (a reset, a timeout) or with `signal.reason` the moment the signal
 * fires, whatever undici is doing then (it does not abort a request still connecting).
 */
export function exchange(
  dispatcher: Dispatcher, opts: Dispatcher.DispatchOptions, signal: AbortSignal,
  plan: (status: number, headers: Exchanged['headers']) => ReadPlan,
): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let headers: Exchanged['headers'] = {};
    let read: ReadPlan = { maxBytes: 0 };
    let decoder: Transform | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let raw = 0;
    let full = false; // the cap is filled exactly: one more byte means truncated

    const settle = (outcome: { ok: true; truncated: boolean } | { ok: false; err: unknown }) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (decoder) decoder.destroy();
      if (outcome.ok) resolve({ status, headers, body: Buffer.concat(chunks, size), truncated: outcome.truncated });
      else reject(outcome.err);
    };
    /** Done before the response ended: keep what was read, and stop the transfer. */
    const stopEarly = (truncated: boolean) => {
      settle({ ok: true, truncated });
      if (controller && !controller.aborted) controller.abort(STOPPED);
    };
    const onAbort = () => {
      settle({ ok: false, err: signal.reason });
      if (controller && !controller.aborted) controller.abort(signal.reason as Error);
    };
    const take = (chunk: Buffer) => {
      if (settled) return;
      if (full) return stopEarly(true);
      const room = read.maxBytes - size;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += Math.max(room, 0);
        return stopEarly(true);
      }
      chunks.push(chunk);
      size += chunk.length;
      if (size === read.maxBytes) full = true;
      if (read.stopWhen && read.stopWhen(Buffer.concat(chunks, size))) stopEarly(true);
    };

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(signal.reason as Error ?? STOPPED);
      },
      onResponseStart(c, statusCode, responseHeaders) {
        if (statusCode < 200) return; // 1xx: the final answer follows
        status = statusCode;
        headers = responseHeaders as Exchanged['headers'];
        read = plan(statusCode, headers);
        if (read.discard) return;
        decoder = decoderFor(read.contentEncoding);
        if (!decoder) return;
        decoder.on('data', take);
        decoder.on('drain', () => c.resume());
        // A corrupt compressed stream keeps what decoded cleanly.
        decoder.on('error', () => stopEarly(true));
        decoder.on('end', () => settle({ ok: true, truncated: false }));
      },
      onResponseData(c, chunk) {
        if (settled) return;
        raw += chunk.length;
        if (read.discard) {
          if (raw > read.maxBytes) stopEarly(true);
          return;
        }
        if (!decoder) return take(chunk);
        if (!decoder.write(chunk)) c.pause();
      },
      onResponseEnd() {
        if (decoder) decoder.end();
        else settle({ ok: true, truncated: false });
      },
      onResponseError(_c, err) {
        if (settled) return;
        // Mid-body, a compressed stream keeps what decoded (as a corrupt one does); plain bytes fail.
        if (decoder && status !== 0 && err.name !== 'AbortError') return settle({ ok: true, truncated: true });
        settle({ ok: false, err });
      },
    };

    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      dispatcher.dispatch(opts, handler);
    } catch (err) {
      settle({ ok: false, err });
    }
  });
}
