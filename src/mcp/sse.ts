/**
 * GET /mcp with `Accept: text/event-stream`: the legacy HTTP+SSE `endpoint`
 * event, then keepalive comments, then the stream ends by itself.
 *
 * Limits (mcp.md §0.3): this is a discovery hint, not a working legacy
 * transport. HTTP+SSE clients (spec 2024-11-05) discard POST replies and wait
 * for them on this stream, which never carries any; they time out. Streamable
 * HTTP clients ignore the event and POST normally. We send no server-initiated
 * messages (service spec "Events" rule 1), so nothing else is ever written.
 */
import type { Request, Response } from 'express';

export interface SseOptions { lifetimeMs: number; keepaliveMs: number }

export const DEFAULT_SSE: SseOptions = { lifetimeMs: 60_000, keepaliveMs: 15_000 };

export function openLegacyStream(req: Request, res: Response, opts: SseOptions): void {
  res.status(200).set({
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // Stops nginx-style proxies from buffering the stream (spec 2026-07-28 transports).
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  // Relative, like the SDK's own SSE server, so clients resolve it against the URL they used.
  res.write('event: endpoint\ndata: /mcp\n\n');

  const keepalive = setInterval(() => res.write(': keepalive\n\n'), opts.keepaliveMs);
  const lifetime = setTimeout(() => res.end(), opts.lifetimeMs);
  const stop = (): void => {
    clearInterval(keepalive);
    clearTimeout(lifetime);
  };
  res.on('close', stop);
  req.on('close', stop);
}
