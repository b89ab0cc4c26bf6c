// GET /batches/{batchId}/results: one row per domain, streamed page by page from storage
// (src/batches/results.ts) through stream.pipeline, so a client that goes away mid-stream
// frees it at once, backpressured or not.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { preferredType } from '../http/negotiate.ts';
import { rateLimitHeaders } from '../keys/service.ts';
import type { Handler } from './types.ts';

export const getBatchResults: Handler<'getBatchResults'> = async (req, res, ctx) => {
  const { keys, batches } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const row = await batches.find(caller, String(req.params.batchId));
  if (caller.kind === 'partner') res.set(rateLimitHeaders(await keys.peek(caller.key.keyId)));
  const format = req.query.format ?? (preferredType(req, ['application/x-ndjson', 'text/csv']) === 'text/csv' ? 'csv' : 'ndjson');
  const csv = format === 'csv';
  res.status(200).set({ 'Content-Type': csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', Vary: 'Accept' });
  try {
    await pipeline(Readable.from(batches.results(row.id, csv)), res);
  } catch (err) {
    // The client went away: the stream is already torn down; nothing to answer.
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || res.destroyed) return;
    throw err;
  }
};
