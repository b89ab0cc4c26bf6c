// A batch's domains as the partner sent them: JSON {domains}, CSV (a `domain` column, else
// the first column) or plain text (one per line). Each entry is read exactly as POST /scan
// reads a domain; the unreadable ones are listed with their line and the Error shape's words,
// duplicates (after normalising) are folded into the first.
import { parse } from 'csv-parse/sync';
import { AppError, errors } from '../errors.ts';

export const MAX_DOMAINS = 10_000;

export interface Rejected {
  line: number;
  input: string;
  error: string;
  hint?: string;
}

export interface ParsedBatch {
  domains: string[];
  rejected: Rejected[];
  duplicates: number;
}

/** The raw entries with their line numbers (1-based: the JSON array's position, the file's line). */
export function entriesOf(contentType: string, body: unknown): Array<{ line: number; input: string }> {
  if (contentType === 'application/json') {
    const list = (body as { domains?: unknown }).domains;
    if (!Array.isArray(list)) throw errors.badRequest('`domains` must be an array of domain names.');
    return list.map((d, i) => ({ line: i + 1, input: typeof d === 'string' ? d : JSON.stringify(d) }));
  }
  const text = typeof body === 'string' ? body : '';
  if (contentType === 'text/csv') {
    let rows: string[][];
    try {
      rows = parse(text, { relax_column_count: true, skip_empty_lines: false, bom: true, trim: true }) as string[][];
    } catch (err) {
      throw errors.badRequest('The CSV could not be read.', (err as Error).message.slice(0, 200));
    }
    const header = rows[0]?.findIndex((c) => c.toLowerCase() === 'domain') ?? -1;
    const column = header >= 0 ? header : 0;
    return rows.map((r, i) => ({ line: i + 1, input: r[column] ?? '' })).filter((e, i) => !(header >= 0 && i === 0) && e.input !== '');
  }
  return text.split(/\r?\n/).map((l, i) => ({ line: i + 1, input: l.trim() })).filter((e) => e.input !== '' && !e.input.startsWith('#'));
}

/** Reads every entry with `read` (the scan service's domain reader, which throws the 400). */
export function parseBatch(entries: ReadonlyArray<{ line: number; input: string }>, read: (raw: string) => string): ParsedBatch {
  if (entries.length === 0) throw errors.badRequest('The batch has no domains.', 'Send 1 to 10,000 domains.');
  if (entries.length > MAX_DOMAINS) throw errors.badRequest(`The batch has ${entries.length} entries; at most ${MAX_DOMAINS} are accepted.`, 'Split it into batches of 10,000 or fewer.');
  const seen = new Set<string>();
  const out: ParsedBatch = { domains: [], rejected: [], duplicates: 0 };
  for (const { line, input } of entries) {
    try {
      const domain = read(input);
      if (seen.has(domain)) out.duplicates++;
      else {
        seen.add(domain);
        out.domains.push(domain);
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      out.rejected.push({ line, input: input.slice(0, 300), error: err.body.error, ...(err.body.hint ? { hint: err.body.hint } : {}) });
    }
  }
  return out;
}
