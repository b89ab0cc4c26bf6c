/**
 * Reading a response body without ever holding more than the cap.
 *
 * The cap applies to *decoded* bytes, so a small gzip or brotli bomb cannot
 * inflate past it: decoding stops (and the streams are destroyed) the moment
 * the cap is reached. `stopWhen` lets a caller end early, e.g. an SSE reader
 * that has seen the event it waited for.
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';

export interface CappedBody { body: Buffer; truncated: boolean }

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip': case 'x-gzip': return createGunzip();
    case 'deflate': return createInflate();
    case 'br': return createBrotliDecompress();
    default: return undefined; // identity or unknown: keep the bytes as sent
  }
}

export async function readCapped(
  raw: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  stopWhen?: (bodySoFar: Buffer) => boolean,
): Promise<CappedBody> {
  const decoder = decoderFor(contentEncoding);
  const source: Readable = decoder ? raw.pipe(decoder) : raw;
  if (decoder) raw.on('error', (err) => decoder.destroy(err));
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += Math.max(room, 0);
        // Ask the stream being read: a decoder can hold much more output after the raw
        // (compressed) body has fully arrived, so raw.readableEnded would say "complete".
        truncated = chunk.length > room || !source.readableEnded;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
      if (stopWhen && stopWhen(Buffer.concat(chunks, size))) {
        truncated = !source.readableEnded;
        break;
      }
    }
  } catch (err) {
    // A corrupt compressed stream keeps what decoded cleanly; abort errors propagate.
    if (!decoder || (err as Error).name === 'AbortError') throw err;
    truncated = true;
  } finally {
    if (decoder) decoder.destroy();
    if (!raw.readableEnded) raw.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}
