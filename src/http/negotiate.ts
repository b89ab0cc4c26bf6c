// req.accepts(types) without its per-request cost in the common cases. Express builds an
// Accepts and a Negotiator and parses the header on every call, a measurable share of the
// cached reads (bench/results.md). The answer is the same: no Accept header (or an empty one)
// or `*/*` picks the first type, as accepts does; a header that is exactly one of the types
// (no parameters, no q) accepts only that one. Anything else is negotiated as before.
import type { Request } from 'express';

export function preferredType<T extends string>(req: Request, types: readonly [T, ...T[]]): T | false {
  const accept = req.headers.accept;
  if (!accept || accept === '*/*') return types[0];
  if ((types as readonly string[]).includes(accept)) return accept as T;
  return req.accepts(types as unknown as string[]) as T | false;
}
