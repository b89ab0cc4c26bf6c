/**
 * What the scanner reads from an HTML page, without running any script (most
 * agents don't either). One htmlparser2 pass; the result is plain data so the
 * checks stay pure.
 */
import LinkHeader from 'http-link-header';
import { Parser } from 'htmlparser2';

export interface PageLink { rel: string[]; href: string; type: string }

export interface PageFacts {
  title: string;
  lang: string;
  metaDescription: string;
  /** Content of meta robots-like tags by name (robots, googlebot, gptbot...). */
  metaRobots: Record<string, string>;
  metaTdmReservation: string | null;
  ogType: string;
  links: PageLink[];
  jsonLd: string[];
  hasMicrodata: boolean;
  hasArticle: boolean;
  /** Visible text with whitespace collapsed (script, style, noscript, template excluded). */
  text: string;
  /**
   * The same text as a browser flows it: text runs joined as they stand (a word spelled with
   * character references stays one word), block elements apart. `text` joins every run with a
   * space and stays as it is, since the verdicts' lengths are measured on it; page-digest.ts reads this one.
   */
  flowText: string;
  /** An empty single-page-app root (div#root, #__next, #app, #__nuxt) with almost no text. */
  appShell: boolean;
}

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
/** Elements whose text runs on with their neighbours' (flowText). */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr']);
const APP_ROOTS = new Set(['root', '__next', 'app', '__nuxt', 'svelte']);

export function analyzePage(html: string): PageFacts {
  const facts: PageFacts = { title: '', lang: '', metaDescription: '', metaRobots: {}, metaTdmReservation: null, ogType: '', links: [], jsonLd: [], hasMicrodata: false, hasArticle: false, text: '', flowText: '', appShell: false };
  const textParts: string[] = [];
  const flowParts: string[] = [];
  const stack: string[] = [];
  let hidden = 0;
  let inTitle = false;
  let jsonLd: string[] | null = null;
  let emptyRoot = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        stack.push(name);
        if (HIDDEN.has(name)) hidden++;
        if (!INLINE.has(name)) flowParts.push(' ');
        if (name === 'html' && attrs.lang) facts.lang = attrs.lang.trim();
        if (name === 'title') inTitle = true;
        if (name === 'article') facts.hasArticle = true;
        if (attrs.itemscope !== undefined || attrs.itemtype) facts.hasMicrodata = true;
        if (name === 'script' && (attrs.type ?? '').toLowerCase().trim() === 'application/ld+json') jsonLd = [];
        if (name === 'div' && attrs.id && APP_ROOTS.has(attrs.id)) emptyRoot = true;
        if (name === 'meta') {
          const key = (attrs.name ?? attrs.property ?? '').toLowerCase();
          const content = attrs.content ?? '';
          if (key === 'description') facts.metaDescription = content.trim();
          else if (key === 'og:type') facts.ogType = content.trim().toLowerCase();
          else if (key === 'tdm-reservation') facts.metaTdmReservation = content.trim();
          else if (key === 'robots' || /bot|^ai|crawler|agent/.test(key)) facts.metaRobots[key] = content.toLowerCase();
        }
        if (name === 'link' && attrs.href) {
          facts.links.push({ rel: (attrs.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean), href: attrs.href, type: (attrs.type ?? '').toLowerCase() });
        }
      },
      ontext(data) {
        if (inTitle) facts.title += data;
        if (jsonLd) jsonLd.push(data);
        else if (hidden === 0) {
          textParts.push(data);
          flowParts.push(data);
        }
      },
      onclosetag(name) {
        stack.pop();
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (!INLINE.has(name)) flowParts.push(' ');
        if (name === 'title') inTitle = false;
        if (name === 'script' && jsonLd) {
          facts.jsonLd.push(jsonLd.join(''));
          jsonLd = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  facts.title = facts.title.replace(/\s+/g, ' ').trim();
  facts.text = textParts.join(' ').replace(/\s+/g, ' ').trim();
  facts.flowText = flowParts.join('').replace(/\s+/g, ' ').trim();
  facts.appShell = emptyRoot && facts.text.length < 100;
  return facts;
}

const memo = new WeakMap<object, PageFacts>();

/**
 * Page facts of a probe, parsed once per response object however many
 * verdicts and checks ask (only a passing response is read as a page).
 */
export function pageOf(view: { body: string; outcome: string }): PageFacts {
  let facts = memo.get(view);
  if (!facts) {
    facts = analyzePage(view.outcome === 'pass' ? view.body : '');
    memo.set(view, facts);
  }
  return facts;
}

/** Extract `<title>` cheaply for evidence records (no full parse). */
export function quickTitle(body: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body.slice(0, 65_536));
  return m ? m[1]!.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
}

/**
 * An RFC 8288 Link header as rel/href/type entries (http-link-header). A header that does not
 * parse yields no links: a malformed header advertises nothing an agent could follow.
 */
export function parseLinkHeader(value: string | undefined): PageLink[] {
  if (!value) return [];
  let refs: LinkHeader.Reference[];
  try {
    refs = LinkHeader.parse(value).refs;
  } catch {
    return [];
  }
  return refs.map((r) => ({ href: r.uri, rel: r.rel.toLowerCase().split(/\s+/).filter(Boolean), type: (r.type ?? '').toLowerCase() }));
}
