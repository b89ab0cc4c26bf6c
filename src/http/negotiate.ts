// req.accepts(types) without its per-request cost in the common cases. Express builds an
// Accepts and a Negotiator and parses the header on every call, a measurable share of the
// cached reads (bench/results.md). The answer is the same: no Accept header (or an empty one)
// or `*/*` picks the first type, as accepts does; a header that is exactly one of the types
// (no parameters, no q) accepts only that one. Anything else is negotiated as before.
import type { Request } from 'express';
import { AppError } from '../errors.ts';

export function preferredType<T extends string>(req: Request, types: readonly [T, ...T[]]): T | false {
  const accept = req.headers.accept;
  if (!accept || accept === '*/*') return types[0];
  if ((types as readonly string[]).includes(accept)) return accept as T;
  return req.accepts(types as unknown as string[]) as T | false;
}

/**
 * What a request for GET /r/{scanId} wants, for a site report and for an MCP-server report:
 * site reports are HTML unless JSON is preferred, MCP-server reports JSON unless HTML is
 * (a browser), and `?format=` overrides both. Also read by the error handler, which answers a
 * malformed id first when the validator runs ahead of the handler.
 */
export function reportWants(req: Request): { site: 'html' | 'json'; mcp: 'html' | 'json' } {
  const format = req.query.format;
  if (format !== undefined) {
    // Checked here too: in production this read is served ahead of the request validator.
    if (format !== 'html' && format !== 'json') throw new AppError('BAD_REQUEST', { error: 'format must be html or json.' });
    return { site: format, mcp: format };
  }
  return {
    site: preferredType(req, ['text/html', 'application/json']) === 'application/json' ? 'json' : 'html',
    mcp: preferredType(req, ['application/json', 'text/html']) === 'text/html' ? 'html' : 'json',
  };
}
