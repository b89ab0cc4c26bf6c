/**
 * Text the CLI prints came partly from the scanned site (titles, vendor pages, robots.txt
 * lines, the reasons and details built from them) and reaches terminals, CI logs and
 * `$GITHUB_STEP_SUMMARY`. A site must not be able to move the cursor, recolour or hide
 * lines (ANSI and other control characters), reorder what a reader sees (the bidi
 * overrides of "Trojan Source", CVE-2021-42574), or start a line of its own (a forged
 * `Gate: passed`, or a GitHub workflow command, which is any log line starting `::`).
 * So every string is made one plain line before any format sees it: escape sequences are
 * removed whole (Node's own `stripVTControlCharacters`), line and tab breaks become a space,
 * and every remaining C0/C1 control and bidi control is dropped.
 */
import { stripVTControlCharacters } from 'node:util';

// Line breaks and tabs (C0 \t \n \v \f \r, NEL U+0085, LINE/PARAGRAPH SEPARATOR U+2028/2029) read as one space.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
// C0, DEL, C1, and the Unicode bidi controls: ALM, LRM, RLM, LRE..RLO, LRI..PDI.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One printable line: no escape sequences, no controls, no bidi overrides, no line breaks. */
export function cleanText(text: string): string {
  return stripVTControlCharacters(text).replace(BREAKS, ' ').replace(CONTROLS, '').toWellFormed();
}

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
