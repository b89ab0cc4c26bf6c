// GET /scan/progress/{progressId}: the web form's progress as server-sent events (see
// ProgressBoard). The stream only watches: the scan runs through POST / alone.
import { encode, encodeComment } from 'eventsource-encoder';
import { AppError, errors } from '../errors.ts';
import type { BoardEvent } from '../scans/progress-board.ts';
import type { Handler } from './types.ts';

const KEEPALIVE_MS = 15_000;
/** A stream whose scan never came (or outlived the deadline) closes after this much past the deadline. */
const GRACE_MS = 30_000;
/** A stream lasts as long as its scan; by then a slot has usually come free. */
const RETRY_S = 30;

function frame(e: BoardEvent): string {
  return e.type === 'phase'
    ? encode({ event: 'phase', data: JSON.stringify({ phase: e.update.phase, status: e.update.status, done: e.update.done, total: e.update.total }) })
    : encode({ event: 'end', data: JSON.stringify({ outcome: e.outcome }) });
}

export const getScanProgress: Handler<'getScanProgress'> = (req, res, ctx) => {
  if (!req.accepts('text/event-stream')) {
    throw new AppError('NOT_ACCEPTABLE', { error: 'This is a server-sent event stream.', hint: 'Send Accept: text/event-stream (an EventSource does).' });
  }
  // The contract's pattern has already refused anything but a lower-case version 4 UUID.
  const id = req.params.progressId as string;
  const release = ctx.services.progress.admit(req.ip ?? req.socket.remoteAddress ?? '');
  if (!release) {
    throw errors.tooMany(RETRY_S, 'Too many progress streams open from this address.', 'Close another tab\'s scan first; the scan itself goes on without its stream.');
  }
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store, no-transform',
    // Stops nginx-style proxies from buffering the stream.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  res.write(encode({ retry: 3000 }));

  let open = true;
  let detach: () => void = () => undefined;
  const keepalive = setInterval(() => res.write(encodeComment('keepalive')), KEEPALIVE_MS);
  const lifetime = setTimeout(() => close(), ctx.config.scanDeadlineMs + GRACE_MS);
  function close(): void {
    if (!open) return;
    open = false;
    clearInterval(keepalive);
    clearTimeout(lifetime);
    detach();
    release!();
    res.end();
  }
  res.on('close', close);
  detach = ctx.services.progress.watch(id, {
    send: (e) => {
      if (open) res.write(frame(e));
    },
    close,
  });
};
