// Variants of a page that a browser renders the same, as real block pages differ from their
// vendor's template: lines re-wrapped inside sentences, indentation changed, text and attribute
// values entity-encoded, tags upper-cased, whitespace minified, attributes unquoted, CRLF line
// ends, a byte-order mark, no-break spaces. Each rewrites the page through htmlparser2's own
// tokens (positions in the source), never with a regex over markup, so script and style text
// and raw-text elements (whose bytes a browser does not decode) are left as they are.
import { Parser } from 'htmlparser2';
import { decodeHTML, decodeHTMLAttribute } from 'entities';

interface Attr { name: string; value: string | undefined; quote: string | null | undefined }
interface Tag { name: string; attrs: Attr[]; selfClosing: boolean; raw: string }
interface TextCtx {
  /** Inside script, style, iframe, xmp, noembed, noframes, plaintext: bytes, not text. */
  raw: boolean;
  /** Inside pre or textarea: whitespace is content. */
  pre: boolean;
  /** The names of the tags just before and just after, lower-cased ('' at either end). */
  before: string;
  after: string;
}
interface Hooks {
  text?(raw: string, ctx: TextCtx): string;
  openTag?(tag: Tag): string;
  closeTag?(name: string, raw: string): string;
  comment?(raw: string): string;
}

const RAW_TEXT = new Set(['script', 'style', 'iframe', 'xmp', 'noembed', 'noframes', 'plaintext']);
const PRE = new Set(['pre', 'textarea']);
export const INLINE = new Set(['a', 'abbr', 'b', 'cite', 'code', 'em', 'font', 'i', 'img', 'input', 'label', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u']);

/** The page with each token the hooks rewrite replaced, everything else kept byte for byte. */
function rewrite(html: string, hooks: Hooks): string {
  const edits: Array<[start: number, end: number, replacement: string]> = [];
  const stack: string[] = [];
  let attrs: Attr[] = [];
  let lastTag = '';
  const inAny = (set: ReadonlySet<string>) => stack.some((n) => set.has(n));
  const nextTag = (from: number) => /^<\/?([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(from, from + 40))?.[1]?.toLowerCase() ?? '';
  const parser = new Parser(
    {
      onattribute(name, value, quote) {
        attrs.push({ name, value: quote === undefined ? undefined : value, quote });
      },
      onopentag(name, _attribs, implied) {
        const a = attrs;
        attrs = [];
        if (implied) return;
        const raw = html.slice(parser.startIndex, parser.endIndex + 1);
        const lower = name.toLowerCase();
        stack.push(lower);
        lastTag = lower;
        if (hooks.openTag) edits.push([parser.startIndex, parser.endIndex + 1, hooks.openTag({ name, attrs: a, selfClosing: /\/\s*>$/.test(raw), raw })]);
      },
      ontext() {
        if (!hooks.text) return;
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        edits.push([start, end, hooks.text(html.slice(start, end), { raw: inAny(RAW_TEXT), pre: inAny(PRE), before: lastTag, after: nextTag(end) })]);
      },
      onclosetag(name, implied) {
        const lower = name.toLowerCase();
        const at = stack.lastIndexOf(lower);
        if (at >= 0) stack.length = at;
        if (implied) return;
        lastTag = lower;
        if (hooks.closeTag) edits.push([parser.startIndex, parser.endIndex + 1, hooks.closeTag(name, html.slice(parser.startIndex, parser.endIndex + 1))]);
      },
      oncomment() {
        if (hooks.comment) edits.push([parser.startIndex, parser.endIndex + 1, hooks.comment(html.slice(parser.startIndex, parser.endIndex + 1))]);
      },
    },
    { decodeEntities: false, lowerCaseTags: false, lowerCaseAttributeNames: false },
  );
  parser.write(html);
  parser.end();
  // Text can be reported in pieces; edits never overlap, so they apply in order.
  edits.sort((x, y) => x[0] - y[0]);
  let out = '';
  let at = 0;
  for (const [start, end, replacement] of edits) {
    if (start < at) continue;
    out += html.slice(at, start) + replacement;
    at = end;
  }
  return out + html.slice(at);
}

/** A tag written out again, each attribute as `quote` says (null: unquoted where HTML allows it). */
function writeTag(tag: Tag, o: { name?: (n: string) => string; value?: (v: string) => string; quote?: string | null } = {}): string {
  let s = `<${(o.name ?? ((n) => n))(tag.name)}`;
  for (const a of tag.attrs) {
    const name = (o.name ?? ((n) => n))(a.name);
    if (a.value === undefined) {
      s += ` ${name}`;
      continue;
    }
    const decoded = decodeHTMLAttribute(a.value);
    const value = o.value ? o.value(decoded) : a.value;
    let q = o.quote === undefined ? (a.quote ?? '"') : o.quote;
    if (q === null && (value === '' || /[\s"'=<>`]/.test(value))) q = "'";
    s += ` ${name}=${q ?? ''}${q ? value.replaceAll(q, q === '"' ? '&quot;' : '&#39;') : value}${q ?? ''}`;
  }
  return `${s}${tag.selfClosing ? ' /' : ''}>`;
}

/** Every character but letters and digits as a numeric character reference, as Akamai writes its page. */
const encodeAll = (s: string) => s.replace(/[^A-Za-z0-9]/gu, (c) => `&#${c.codePointAt(0)};`);
/** And every third letter in hex, for good measure. */
const encodeText = (s: string) => {
  let i = 0;
  return [...s].map((c) => (/[A-Za-z]/.test(c) ? (++i % 3 === 0 ? `&#x${c.codePointAt(0)!.toString(16)};` : c) : encodeAll(c))).join('');
};

export interface Mutation {
  name: string;
  /** Only for HTML bodies: a browser shows a text/plain body's bytes as they are. */
  htmlOnly: boolean;
  apply(html: string): string;
}

export const MUTATIONS: readonly Mutation[] = [
  {
    name: 'lines re-wrapped',
    htmlOnly: false,
    // Every other space inside a sentence becomes a line break with an indent.
    apply: (html) => rewrite(html, { text: (t, c) => (c.raw || c.pre ? t : t.replace(/ /g, (() => { let n = 0; return () => (++n % 2 ? '\n      ' : ' '); })())) }),
  },
  {
    name: 'indentation changed',
    htmlOnly: false,
    apply: (html) => html.split('\n').map((line) => `\t  ${line.trimStart()}`).join('\n'),
  },
  {
    name: 'entities encoded',
    htmlOnly: true,
    apply: (html) => rewrite(html, {
      text: (t, c) => (c.raw ? t : encodeText(decodeHTML(t))),
      openTag: (tag) => writeTag(tag, { value: encodeAll }),
    }),
  },
  {
    name: 'tags upper-cased',
    htmlOnly: true,
    apply: (html) => rewrite(html, { openTag: (tag) => writeTag(tag, { name: (n) => n.toUpperCase() }), closeTag: (name) => `</${name.toUpperCase()}>` }),
  },
  {
    name: 'body minified',
    htmlOnly: false,
    // Whitespace between block tags goes, runs inside text become one space, comments go.
    apply: (html) => rewrite(html, {
      text: (t, c) => {
        if (c.raw || c.pre) return t;
        if (t.trim() === '') return INLINE.has(c.before) || INLINE.has(c.after) ? ' ' : '';
        return t.replace(/\s+/g, ' ');
      },
      comment: () => '',
    }).replace(/^\s+|\s+$/g, ''),
  },
  { name: 'attributes unquoted', htmlOnly: true, apply: (html) => rewrite(html, { openTag: (tag) => writeTag(tag, { quote: null }) }) },
  { name: 'attributes single-quoted', htmlOnly: true, apply: (html) => rewrite(html, { openTag: (tag) => writeTag(tag, { quote: "'" }) }) },
  { name: 'CRLF line ends', htmlOnly: false, apply: (html) => html.replace(/\r?\n/g, '\r\n') },
  { name: 'byte-order mark', htmlOnly: false, apply: (html) => `\ufeff${html}` },
  { name: 'no-break spaces', htmlOnly: true, apply: (html) => rewrite(html, { text: (t, c) => (c.raw || c.pre ? t : t.replace(/ /g, '&nbsp;')) }) },
];

/** Whether a sample's body is HTML (its content type says so, or it has none and starts like markup). */
export function isHtml(headers: Readonly<Record<string, string>>, body: string): boolean {
  const type = headers['content-type'];
  return type ? /html|xml/i.test(type) : /^\s*</.test(body);
}
