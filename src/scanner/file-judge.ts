/**
 * Is the file the file? One judgement for every discovery file the scanner reads (robots.txt,
 * llms.txt, agents.md, sitemaps, security.txt, the well-known JSON documents, OpenAPI, RSL, .md twins).
 *
 * Single-page apps and catch-all hosts answer any path with status 200 and their HTML shell or a
 * "not found" page (Cloudflare Pages without a 404.html, Netlify and Vercel rewrites, Firebase and
 * S3/CloudFront fallbacks to index.html). Such an answer is not the file: the file is `absent`,
 * and the report says what came instead ("the site answered with an HTML page"), never that the
 * file is present or broken.
 *
 * The HTML test follows the WHATWG MIME Sniffing standard's HTML patterns (the leading tags a
 * browser takes for HTML, §7.1) and reads the first 64 KiB with htmlparser2 for the document's
 * structure: html/head/body, a framework's app root, the title and first heading. The body
 * decides before the Content-Type: a real robots.txt mislabelled text/html is still the file,
 * and an app shell labelled text/plain is still a page.
 */
import { Parser } from 'htmlparser2';
import type { FetchedView } from './types.ts';

/** What a file is expected to be. `any` (pages, links) is never judged by its format. */
export type FileFormat = 'robots' | 'llms' | 'markdown' | 'text' | 'json' | 'xml' | 'any';
export type FileState = 'present' | 'absent' | 'unknown';
/** What a 2xx answer held instead of the file. */
export type Instead = 'app-shell' | 'soft-404' | 'html-page' | 'not-found-text' | 'not-found-json';

export interface FileJudgement {
  state: FileState;
  /** Set when a 2xx answer was not the file. */
  instead: Instead | null;
  /** For reports: "the site answered with an HTML page, a Next.js app shell"; empty when present. */
  note: string;
}

/** The format each evidence key's file must have (keys of gather.ts and followups.ts). */
export function formatOf(key: string): FileFormat {
  if (key.startsWith('robots:')) return 'robots';
  if (key === 'file:/llms.txt' || key === 'file:/llms-full.txt') return 'llms';
  if (key.startsWith('md-variant:') || key === 'file:/agents.md') return 'markdown';
  if (key === 'file:/sitemap.xml' || key === 'sitemap:robots' || key === 'license') return 'xml';
  if (key === 'file:/.well-known/security.txt') return 'text';
  if (key.startsWith('file:') || key.startsWith('service-desc:') || key.startsWith('mcp-card:')) return 'json';
  return 'any';
}

const DENIED = new Set(['challenge', 'block', 'rate-limited', 'auth']);

/** Was the file there? Status first (a plain 4xx is absent; a denial, a 5xx or no answer is unknown), then the body. */
export function judgeFile(v: FetchedView | undefined, format: FileFormat = v ? formatOf(v.record.key) : 'any'): FileJudgement {
  if (!v || !v.ok || DENIED.has(v.outcome) || v.status >= 500) return { state: 'unknown', instead: null, note: '' };
  if (v.status < 200 || v.status >= 300 || v.body.length === 0) return { state: 'absent', instead: null, note: '' };
  const instead = notTheFile(format, v.contentType, v.body);
  return instead ? { state: 'absent', ...instead } : { state: 'present', instead: null, note: '' };
}

/** " (the site answered with …)" after a sentence saying a file is missing, or nothing. */
export function insteadNote(v: FetchedView | undefined): string {
  const j = judgeFile(v);
  return j.note ? ` (${j.note})` : '';
}

/** What the body is instead of a file of `format`, or null when it is the file (or `format` is any). */
export function notTheFile(format: FileFormat, contentType: string, body: string): { instead: Instead; note: string } | null {
  if (format === 'any') return null;
  const page = sniffHtml(contentType, body, format);
  if (page) return { instead: page.kind, note: `the site answered with an HTML page${page.kind === 'html-page' ? '' : `, ${page.words}`}` };
  if (isNotFoundJson(body)) return { instead: 'not-found-json', note: 'the site answered with a JSON "not found" message served as a success' };
  if (isNotFoundText(body)) return { instead: 'not-found-text', note: 'the site answered with a "not found" message served as a success' };
  return null;
}

export interface HtmlPage {
  kind: 'app-shell' | 'soft-404' | 'html-page';
  /** The framework whose app root or build output the page carries, when one is recognised. */
  framework: string | null;
  title: string;
  /** "a Next.js app shell", "a “not found” page", "an HTML document". */
  words: string;
}

/**
 * The HTML page a body is, or null when it is not one. With `format` set to a file format, a
 * body that clearly is that format wins over a text/html Content-Type.
 */
export function sniffHtml(contentType: string, body: string, format: FileFormat = 'any'): HtmlPage | null {
  const head = body.slice(0, SNIFF_CHARS).replace(/^\uFEFF/, '');
  const typedHtml = /\b(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
  const startsWithTag = /^\s*</.test(head);
  if (!startsWithTag && !typedHtml) return null;
  const doc = startsWithTag ? readStructure(head) : null;
  const strict = format === 'json' || format === 'xml' || format === 'robots' || format === 'text';
  const byBody = doc !== null && (doc.doctypeHtml || DOCUMENT_ROOTS.has(doc.first)
    || (HTML_ELEMENTS.has(doc.first) && (strict || doc.structure || doc.framework !== null)));
  if (!byBody && !(typedHtml && !isClearly(format, head))) return null;
  const s = doc ?? EMPTY;
  const notFound = NOT_FOUND.test(s.title) || NOT_FOUND.test(s.h1);
  const kind = notFound ? 'soft-404' : s.framework ? 'app-shell' : 'html-page';
  const words = kind === 'soft-404' ? `a “not found” page${s.framework ? ` of ${s.framework}` : ''} served as a success` : kind === 'app-shell' ? `${/^[AEIOU]/.test(s.framework!) ? 'an' : 'a'} ${s.framework} app shell` : 'an HTML document';
  return { kind, framework: s.framework, title: s.title, words };
}

const SNIFF_CHARS = 64 * 1024;

/** The leading tags WHATWG MIME Sniffing §7.1 takes for HTML, and a few every build tool emits first. */
const HTML_ELEMENTS = new Set(['html', 'head', 'body', 'script', 'iframe', 'h1', 'div', 'font', 'table', 'a', 'style', 'title', 'b', 'br', 'p', 'meta', 'link', 'noscript', 'main', 'header', 'nav', 'app-root']);
const DOCUMENT_ROOTS = new Set(['html', 'head', 'body']);

/** Titles and headings of "not found" pages (English and the languages of common themes). */
const NOT_FOUND = /\b404\b|not[\s_-]+found|doesn[’']?t exist|does not exist|no longer exists|could ?n[o’']?t (?:be )?f(?:ou)?nd|cannot be found|introuvable|nicht gefunden|no encontrad|não encontrad|non trovat|niet gevonden|找不到|未找到|ページが見つかりません|페이지를 찾을 수 없습니다/i;

interface Structure {
  first: string;
  doctypeHtml: boolean;
  /** An html, head or body element anywhere in the sniffed part. */
  structure: boolean;
  framework: string | null;
  title: string;
  h1: string;
}
const EMPTY: Structure = { first: '', doctypeHtml: false, structure: false, framework: null, title: '', h1: '' };

/** App roots and build markers by framework, checked in this order (a Next.js 404 also has a div). */
const FRAMEWORKS: ReadonlyArray<[name: string, test: (tag: string, attrs: Record<string, string>) => boolean]> = [
  ['Next.js', (t, a) => a.id === '__next' || a.id === '__NEXT_DATA__' || /^\/_next\//.test(a.src ?? a.href ?? '')],
  ['Nuxt', (t, a) => a.id === '__nuxt' || a.id === '__NUXT_DATA__' || /^\/_nuxt\//.test(a.src ?? a.href ?? '')],
  ['SvelteKit', (t, a) => Object.keys(a).some((k) => k.startsWith('data-sveltekit')) || /\/_app\/immutable\//.test(a.src ?? a.href ?? '')],
  ['Angular', (t, a) => t === 'app-root' || 'ng-version' in a],
  ['Gatsby', (t, a) => a.id === '___gatsby' || (t === 'meta' && /^gatsby/i.test(a.content ?? '') && a.name === 'generator')],
  ['Docusaurus', (t, a) => a.id === '__docusaurus' || (t === 'meta' && a.name === 'generator' && /^docusaurus/i.test(a.content ?? ''))],
  ['Vue', (t, a) => t === 'div' && a.id === 'app'],
  ['React', (t, a) => t === 'div' && a.id === 'root'],
];

function readStructure(head: string): Structure {
  const s: Structure = { ...EMPTY };
  let found: number | null = null;
  let inTitle = false;
  let inH1 = false;
  let h1Done = false;
  const parser = new Parser({
    onprocessinginstruction(name, data) {
      if (!s.first && /^!doctype\s+html\b/i.test(data)) s.doctypeHtml = true;
    },
    onopentag(name, attrs) {
      if (!s.first) s.first = name;
      if (DOCUMENT_ROOTS.has(name)) s.structure = true;
      FRAMEWORKS.forEach(([, test], i) => { if ((found === null || i < found) && test(name, attrs)) found = i; });
      if (name === 'title') inTitle = true;
      if (name === 'h1' && !h1Done) inH1 = true;
    },
    ontext(text) {
      if (inTitle) s.title += text;
      if (inH1) s.h1 += text;
    },
    onclosetag(name) {
      if (name === 'title') inTitle = false;
      if (name === 'h1' && inH1) { inH1 = false; h1Done = true; }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: false });
  parser.write(head);
  parser.end();
  s.framework = found === null ? null : FRAMEWORKS[found]![0];
  s.title = s.title.replace(/\s+/g, ' ').trim();
  s.h1 = s.h1.replace(/\s+/g, ' ').trim();
  return s;
}

/** Does the start of the body read as the expected format, whatever the Content-Type says? */
function isClearly(format: FileFormat, head: string): boolean {
  const firstLine = head.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#')) ?? '';
  switch (format) {
    case 'robots': return /^(user-agent|allow|disallow|sitemap|crawl-delay|host|content-signal|content-usage)\s*:/i.test(firstLine);
    case 'text': return /^[a-z][a-z0-9-]*\s*:\s*\S/i.test(firstLine);
    case 'llms':
    case 'markdown': return /^\s*#{1,6}\s/.test(head);
    case 'json': return /^\s*[[{]/.test(head);
    case 'xml': return /^\s*<\?xml/i.test(head);
    default: return false;
  }
}

/** A short text body that only says "not found" (Go's http.NotFound, many proxies' defaults). */
function isNotFoundText(body: string): boolean {
  const t = body.trim();
  return t.length <= 256 && /^(?:404\b|not found\b|page not found\b|file not found\b|cannot get\s|no such file\b|the requested url .{0,200} was not found)/i.test(t);
}

const ERROR_KEYS = new Set(['error', 'errors', 'message', 'status', 'statuscode', 'code', 'detail', 'title', 'type', 'path', 'timestamp', 'success', 'ok']);

/** A JSON error object that says "not found" (a catch-all API route answering every path). */
function isNotFoundJson(body: string): boolean {
  if (body.length > 4096 || !/^\s*\{/.test(body)) return false;
  let doc: unknown;
  try { doc = JSON.parse(body); } catch { return false; }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return false;
  const entries = Object.entries(doc as Record<string, unknown>);
  if (entries.length === 0 || entries.some(([k]) => !ERROR_KEYS.has(k.toLowerCase()))) return false;
  return entries.some(([, v]) => v === 404 || v === '404' || (typeof v === 'string' && /not[\s_-]*found/i.test(v)));
}

/** What a link listed in llms.txt led to (rubric-v1.2-preview's discovery.llms-txt-links). */
export type LinkOutcome = 'resolves' | 'dead' | 'not-found-page' | 'html-for-markdown' | 'empty' | 'unknown';

/**
 * A followed link: dead on a 4xx or 5xx the edge did not mitigate; not resolving on a "not
 * found" page or message served as a success, on an empty answer, and, where Markdown was
 * promised, on an HTML page; unknown when the edge turned the request away or nothing came.
 */
export function judgeLink(v: FetchedView | undefined, promisesMarkdown: boolean): { outcome: LinkOutcome; words: string } {
  if (!v || !v.ok) return { outcome: 'unknown', words: v?.record.errorCode ? `not fetched (${v.record.errorCode})` : 'not fetched' };
  if (DENIED.has(v.outcome)) return { outcome: 'unknown', words: `met a ${v.outcome} (HTTP ${v.status})` };
  if (v.status >= 400) return { outcome: 'dead', words: `HTTP ${v.status}` };
  if (v.status < 200 || v.status >= 300) return { outcome: 'unknown', words: `HTTP ${v.status}` };
  if (v.body.length === 0) return { outcome: 'empty', words: 'an empty answer' };
  const page = sniffHtml(v.contentType, v.body, promisesMarkdown ? 'markdown' : 'any');
  if (page?.kind === 'soft-404' || isNotFoundText(v.body) || isNotFoundJson(v.body)) return { outcome: 'not-found-page', words: 'a “not found” page served as a success' };
  if (promisesMarkdown && page) return { outcome: 'html-for-markdown', words: `an HTML page${page.kind === 'app-shell' ? ` (${page.words})` : ''} where Markdown was promised` };
  return { outcome: 'resolves', words: `HTTP ${v.status}` };
}
