// Text that came from someone else (a scanned site's titles and pages, a webhook receiver's
// answer) and is shown to people: in terminals, CI logs and `$GITHUB_STEP_SUMMARY` by the CLI,
// in getWatch and the watch's page by the service. It must not be able to move the cursor,
// recolour or hide lines (ANSI and other control characters), reorder what a reader sees (the
// bidi overrides of "Trojan Source", CVE-2021-42574), or start a line of its own (a forged
// `Gate: passed`, or a GitHub workflow command, which is any log line starting `::`). So every
// such string is made one plain line first: escape sequences are removed whole (Node's own
// `stripVTControlCharacters`), line and tab breaks become a space, and every remaining C0/C1
// control and bidi control is dropped.
import { stripVTControlCharacters } from 'node:util';

// Line breaks and tabs (C0 \t \n \v \f \r, NEL U+0085, LINE/PARAGRAPH SEPARATOR U+2028/2029) read as one space.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
// C0, DEL, C1, and the Unicode bidi controls: ALM, LRM, RLM, LRE..RLO, LRI..PDI.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One printable line: no escape sequences, no controls, no bidi overrides, no line breaks. */
export function cleanText(text: string): string {
  return stripVTControlCharacters(text).replace(BREAKS, ' ').replace(CONTROLS, '').toWellFormed();
}

/** cleanText, spaces collapsed, then at most `max` characters (code points), an ellipsis marking a cut. */
export function cleanExcerpt(text: string, max: number): string {
  const one = cleanText(text).replace(/ {2,}/g, ' ').trim();
  const chars = [...one];
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : one;
}
