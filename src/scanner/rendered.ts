/**
 * A response body as a browser renders it, for marker matching (fingerprints-v1.2 on).
 *
 * Real block pages differ from a vendor's template in line breaks inside sentences,
 * indentation, entity encoding, tag case and attribute quoting; a marker matched on the raw
 * bytes misses them and reads the denial as `pass`. So the body is parsed once (htmlparser2,
 * entities decoded as a browser decodes them) into two case-folded views, each with every run
 * of whitespace (line breaks, tabs, no-break spaces, a byte-order mark) collapsed to one space:
 *   - `text`: what a reader sees, title included: the text of the page without its markup,
 *     block elements apart, inline ones run together ("Error code <span>1020</span>");
 *   - `markup`: the page's tags written out canonically: lower-case tag and attribute names,
 *     every attribute value decoded and double-quoted, with the text of title, script and style
 *     only. `<TITLE> Just a moment...</TITLE>` and `<title>Just a moment...</title>` read alike,
 *     as do `id=px-captcha` and `id="px-captcha"`. The page's other text is not in it, so an
 *     article that quotes a vendor's markup in its text can never look like that markup.
 * Typographic quotes are folded to ASCII in both, so "don’t" and "don't" match one marker.
 *
 * Rendering costs a parse, so a marker set renders a page only when the page's lower-cased bytes
 * hold every word (run of three or more letters or digits) of one of its markers, or the page
 * spells letters or digits as character references, which could hide one: a word of a rendered
 * marker can come only from the same letters in the bytes. The words are found in one pass
 * (wordIndex); most pages hold no marker's every word and are never parsed.
 */
import { Parser } from 'htmlparser2';

export interface Rendered {
  text: string;
  markup: string;
}

/** Elements that do not break a line of text: their text runs on with their neighbours'. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr']);
/** Elements whose content is program text, never shown: in the markup view, not the text view. */
const CODE = new Set(['script', 'style']);
/** Elements whose text is in the markup view: program text and the title (a page's own, in its head). */
const IN_MARKUP = new Set(['script', 'style', 'title']);

/** Whitespace as HTML renders it, and the typographic quotes folded to ASCII. */
const SPACE = /\s+/g;
const SINGLE = /[\u2018\u2019\u201a\u2032]/g;
const DOUBLE = /[\u201c\u201d\u201e\u2033]/g;

export function fold(s: string): string {
  return s.replace(SPACE, ' ').replace(SINGLE, "'").replace(DOUBLE, '"').toLowerCase().trim();
}

export function renderBody(body: string): Rendered {
  const text: string[] = [];
  const markup: string[] = [];
  // Text between two tags, kept until the next tag so it can be trimmed there.
  let pending = '';
  let code = 0;
  let inMarkup = 0;
  const flush = () => {
    if (pending) {
      const t = pending.replace(SPACE, ' ').trim();
      if (t) markup.push(t);
      pending = '';
    }
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        flush();
        let tag = `<${name}`;
        for (const key in attrs) tag += ` ${key}="${attrs[key]!.replace(SPACE, ' ').trim().replaceAll('"', '&quot;')}"`;
        markup.push(`${tag}>`);
        if (CODE.has(name)) code++;
        if (IN_MARKUP.has(name)) inMarkup++;
        if (!INLINE.has(name)) text.push(' ');
      },
      ontext(data) {
        if (inMarkup > 0) pending += data;
        if (code === 0) text.push(data);
      },
      onclosetag(name) {
        flush();
        markup.push(`</${name}>`);
        if (CODE.has(name)) code = Math.max(0, code - 1);
        if (IN_MARKUP.has(name)) inMarkup = Math.max(0, inMarkup - 1);
        if (!INLINE.has(name)) text.push(' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(body);
  parser.end();
  flush();
  return { text: fold(text.join('')), markup: fold(markup.join('')) };
}

/** One rendered-page marker, folded as the page is, with the words its bytes must hold. */
interface Marker { folded: string; as: string; words: readonly string[] }

/** A marker set's rendered-page markers (fingerprints-v1.2 on), prepared once. */
export interface RenderedMarkers {
  text: readonly Marker[];
  markup: readonly Marker[];
  textAll: readonly Marker[];
  markupAll: readonly Marker[];
  /** A pattern the rendered text must match too, for the all-of clause. */
  pattern: RegExp | undefined;
  /** Rendered text that vetoes a match. */
  unless: readonly string[];
  /** Every word of textAll and markupAll. */
  allWords: readonly string[];
}

/** How rare a word is likely to be in a page: rare letters first, then length. A page is mostly told apart by its first word. */
const rarity = (w: string) => 10 * (w.match(/[jqxzk0-9]/g)?.length ?? 0) + w.length;

/** Runs of three or more letters or digits, rarest first. */
function wordsOf(folded: string): string[] {
  return [...new Set(folded.match(/[a-z0-9]{3,}/g) ?? [])].sort((a, b) => rarity(b) - rarity(a));
}

type RenderedSet = { text?: readonly string[]; markup?: readonly string[]; textAll?: readonly string[]; markupAll?: readonly string[]; textPattern?: string; unless?: readonly string[] };

export function compileRendered(set: RenderedSet): RenderedMarkers | undefined {
  const prep = (list: readonly string[] | undefined) => (list ?? []).map((as) => ({ folded: fold(as), as, words: wordsOf(fold(as)) }));
  const m = { text: prep(set.text), markup: prep(set.markup), textAll: prep(set.textAll), markupAll: prep(set.markupAll) };
  if (!m.text.length && !m.markup.length && !m.textAll.length && !m.markupAll.length) return undefined;
  // A pattern only narrows the all-of clause, whose words the prefilter still requires.
  if (set.textPattern && !m.textAll.length && !m.markupAll.length) throw new Error(`textPattern ${set.textPattern} needs textAll or markupAll`);
  return {
    ...m,
    pattern: set.textPattern ? new RegExp(set.textPattern, 'i') : undefined,
    unless: (set.unless ?? []).map(fold),
    allWords: [...new Set([...m.textAll, ...m.markupAll].flatMap((k) => k.words))],
  };
}

/**
 * Which words of a set's rendered markers a page's bytes hold, found in one pass: a lookahead
 * alternation of every word, longest first, then each found word credited with the shorter
 * words inside it (a word found at a position hides the ones that start there too).
 */
export interface WordIndex { find(lower: string): ReadonlySet<string> }

export function wordIndex(markers: Iterable<RenderedMarkers>): WordIndex {
  const words = new Set<string>();
  for (const m of markers) for (const k of [...m.text, ...m.markup, ...m.textAll, ...m.markupAll]) for (const w of k.words) words.add(w);
  const sorted = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const inside = new Map(sorted.map((w) => [w, sorted.filter((v) => v !== w && w.includes(v))]));
  const re = sorted.length ? new RegExp(`(?=(${sorted.join('|')}))`, 'g') : null;
  return {
    find(lower) {
      const found = new Set<string>();
      if (!re) return found;
      for (const m of lower.matchAll(re)) {
        const w = m[1]!;
        if (found.has(w)) continue;
        found.add(w);
        for (const v of inside.get(w)!) found.add(v);
      }
      return found;
    },
  };
}

/** A body's views, each made at most once and only when some marker set asks. */
export interface PageViews { lower(): string; has(word: string): boolean; rendered(): Rendered; hidesLetters(): boolean }

/**
 * Pages above this size are searched word by word instead of in one pass for every word: only
 * the few marker sets without a size bound read them, and a handful of includes costs less
 * than the pass.
 */
const ONE_PASS_MAX = 65_536;

function memo(f: (w: string) => boolean): (w: string) => boolean {
  const seen = new Map<string, boolean>();
  return (w) => {
    let v = seen.get(w);
    if (v === undefined) seen.set(w, (v = f(w)));
    return v;
  };
}

export function pageViews(body: string, index: WordIndex): PageViews {
  let lower: string | undefined;
  let words: ReadonlySet<string> | undefined;
  let rendered: Rendered | undefined;
  let hides: boolean | undefined;
  const views: PageViews = {
    lower: () => (lower ??= body.toLowerCase()),
    has: body.length > ONE_PASS_MAX ? memo((w) => views.lower().includes(w)) : (w) => (words ??= index.find(views.lower())).has(w),
    rendered: () => (rendered ??= renderBody(body)),
    // Above ONE_PASS_MAX only Cloudflare's challenge form and script are read, which no page spells
    // with character references; so a large page is never parsed for a reference that hides nothing.
    hidesLetters: () => (hides ??= body.length <= ONE_PASS_MAX && hidesLetters(body)),
  };
  return views;
}

/** Whether a numeric character reference in `body` stands for an ASCII letter or digit (`&#x63;`). */
export function hidesLetters(body: string): boolean {
  for (let at = body.indexOf('&#'); at >= 0; at = body.indexOf('&#', at + 2)) {
    const m = /^&#(?:[xX]([0-9a-fA-F]+)|([0-9]+))/.exec(body.slice(at, at + 12));
    if (!m) continue;
    const c = m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  }
  return false;
}

function holds(page: PageViews, words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) if (!page.has(words[i]!)) return false;
  return true;
}

function firstIn(markers: readonly Marker[], hay: string): Marker | undefined {
  for (let i = 0; i < markers.length; i++) if (hay.includes(markers[i]!.folded)) return markers[i];
  return undefined;
}

const quoted = (markers: readonly Marker[]) => markers.map((k) => `"${k.as}"`).join(' + ');

/** The first rendered-page marker present, described for evidence, or undefined. */
export function matchRendered(m: RenderedMarkers, page: PageViews): string | undefined {
  let candidate = false;
  for (let i = 0; i < m.text.length && !candidate; i++) candidate = holds(page, m.text[i]!.words);
  for (let i = 0; i < m.markup.length && !candidate; i++) candidate = holds(page, m.markup[i]!.words);
  const all = (m.textAll.length > 0 || m.markupAll.length > 0) && holds(page, m.allWords);
  if (!candidate && !all && !page.hidesLetters()) return undefined;
  const r = page.rendered();
  const hit = firstHit(m, r);
  return hit && !m.unless.some((u) => r.text.includes(u)) ? hit : undefined;
}

function firstHit(m: RenderedMarkers, r: Rendered): string | undefined {
  const t = firstIn(m.text, r.text);
  if (t) return `text "${t.as}"`;
  const k = firstIn(m.markup, r.markup);
  if (k) return `markup "${k.as}"`;
  if ((m.textAll.length || m.markupAll.length) && m.textAll.every((x) => r.text.includes(x.folded)) && m.markupAll.every((x) => r.markup.includes(x.folded)) && (!m.pattern || m.pattern.test(r.text))) {
    return [m.textAll.length ? `text ${quoted(m.textAll)}` : '', m.markupAll.length ? `markup ${quoted(m.markupAll)}` : '', m.pattern ? `pattern /${m.pattern.source}/` : ''].filter(Boolean).join(' + ');
  }
  return undefined;
}
