/**
 * How a request arrives: the header set a probe sends, with where each value comes from.
 * The data files (roster-v1.1 on) carry one per agent, one for the browser control and one
 * per product that shares a token; `src/scanner/roster.ts` reads them.
 */

/** Header name (case as sent) and value, in the order sent. */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * Where a header's value comes from: the operator's documentation, a public capture of the
 * real agent's request, a capture corrected as the note says (headless Chrome to headed), or our
 * stated default because neither publishes it.
 */
export type Basis = 'documented' | 'captured' | 'corrected' | 'default';

export interface Source { url: string; what: string }

export interface ArrivalRequest {
  /**
   * Every header the probe sends, in order. The HTTP client writes `host` and
   * `connection: keep-alive` (lowercase) before them; the egress sends these unchanged.
   */
  headers: HeaderList;
  /** Basis per header, by lowercase name. */
  basis: Readonly<Record<string, Basis>>;
  /** Whether the order was seen in a capture or is ours (captures behind a CDN rarely keep it). */
  order: 'captured' | 'default';
  sources: readonly Source[];
  /** What is not published, and what is sent instead (or left out) and why. */
  note: string;
}

/**
 * A product that arrives under a roster token (or under none) with a request of its own,
 * measured for Markdown only: it asks for Markdown in its Accept, or follows a
 * `rel="alternate" type="text/markdown"` link.
 */
export interface ProductArrival {
  /** Evidence key suffix: `markdown:<id>`. */
  id: string;
  product: string;
  vendor: string;
  /** The roster token its user-agent carries, when it carries one. */
  token: string | null;
  asks: 'accept' | 'alternate';
  request: ArrivalRequest;
}

/** The value of `name` (any case) in a header list, if present. */
export function headerValue(list: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  return list.find(([n]) => n.toLowerCase() === lower)?.[1];
}
