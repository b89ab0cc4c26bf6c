// Text the CLI prints came partly from the scanned site (titles, vendor pages, robots.txt
// lines, the reasons and details built from them): every string is made one plain line
// (cleanText, src/security/plain-text.ts, which says what it removes and why) before any
// format sees it; multi-line fields are cleaned line by line.
import { cleanText } from '../security/plain-text.ts';

export { cleanText };

/**
 * Fields whose text is lines by nature (a unified diff, configuration to paste): each line is
 * cleaned on its own and the line breaks kept, so every output can indent, fence or escape
 * line by line; none of them prints a line without a prefix of its own.
 */
const MULTILINE_KEYS = new Set(['unifiedDiff', 'snippet']);

/** `cleanText` per line, the line feeds kept. */
export function cleanLines(text: string): string {
  return text.split(/\r\n|\r|\n/).map(cleanText).join('\n');
}

/** `cleanText` over every string in a value (objects, arrays and Maps), keys included. */
export function cleanDeep<T>(value: T): T {
  return walk(value) as T;
}

function walk(v: unknown): unknown {
  if (typeof v === 'string') return cleanText(v);
  if (Array.isArray(v)) return v.map(walk);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [walk(k), walk(x)]));
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [cleanText(k), typeof x === 'string' && MULTILINE_KEYS.has(k) ? cleanLines(x) : walk(x)]));
  }
  return v;
}

/**
 * Site text inside Markdown (a pull-request comment, GitHub's job summary): every ASCII
 * punctuation character is backslash-escaped, which CommonMark (0.31, section 2.4 "Backslash
 * escapes") defines to stand for the literal character, so no text can open a link, an image,
 * emphasis, raw HTML, a table cell (`|`), a heading or a list. Never use it inside a code span.
 */
export function markdownText(text: string): string {
  return cleanText(text).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}
