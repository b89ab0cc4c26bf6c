/**
 * RFC 9309 groups and matching, owned here because the library we used (robots-parser) ends
 * a group at any non-rule line and lets an empty named group fall back to `*`, which read
 * `User-agent: GPTBot / Crawl-delay: 10 / User-agent: ClaudeBot / Disallow: /` as allowing
 * GPTBot. The conformance table in test/fixtures/robots/ (google/robotstxt, scrapy/protego,
 * RFC 9309's examples) is this module's specification.
 *
 *   - §2.1: a group is one or more consecutive user-agent lines and the rules after them; only
 *     a user-agent line after a rule line starts the next group. Other records (Sitemap,
 *     Crawl-delay, unknown lines, blank lines) never end a group. Rules before any group are
 *     ignored.
 *   - §2.2.1: the product token is matched case-insensitively; every group naming it is
 *     combined; without one, the `*` groups are combined; a named group with no rules
 *     allows everything (it does not fall back to `*`).
 *   - §2.2.2: the longest match (in octets) wins, Allow wins a tie; paths and patterns are
 *     compared percent-normalised: non-ASCII and reserved octets encoded, unreserved
 *     escapes decoded, so `%2A` and `%24` in a pattern match a literal `*` and `$`.
 *   - §2.2.3: `*` matches any sequence, a final `$` anchors the end.
 *   - §2.2.2: /robots.txt itself is always allowed. A UTF-8 BOM is skipped only at the start.
 */

export interface RobotsRule { allow: boolean; pattern: string; line: number }
/** One group: its tokens and the 1-based lines that name them (parallel arrays), and its rules. */
export interface RobotsGroup { tokens: string[]; agentLines: number[]; rules: RobotsRule[] }
type Group = RobotsGroup;
export interface RobotsRules { groups: Group[] }

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** Unreserved and reserved characters of RFC 3986, and `%`; anything else is encoded. */
const URI_CHAR = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/**
 * Percent-normalises a path or pattern for comparison. `*` and `$` are kept as characters
 * (specials in a pattern), everything else outside the URI character set is encoded as
 * UTF-8 octets, escapes of unreserved characters are decoded and other escapes upper-cased.
 */
export function normalizePath(path: string): string {
  let out = '';
  for (const ch of path) {
    if (URI_CHAR.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

/** A URL path as a crawler would compare it: literal `*` and `$` are data, not specials. */
function normalizeTarget(path: string): string {
  return normalizePath(path).replace(/\*/g, '%2A').replace(/\$/g, '%24');
}

/**
 * The token a user-agent line names, lower-cased: `*`, or the value up to the first space or
 * `/` (so `Googlebot/2.1` and `Foo Bar` name `googlebot` and `foo`).
 */
function productToken(value: string): string {
  if (value.startsWith('*')) return '*';
  return (/^[^\s/]+/.exec(value)?.[0] ?? '').toLowerCase();
}

// Spaces and tabs only: JavaScript's \s would also swallow a stray BOM mid-file.
const FIELD = /^[ \t]*([A-Za-z-]+)[ \t]*(?::[ \t]*|[ \t]+(?=\S))(.*)$/;

export function parseRobotsRules(text: string): RobotsRules {
  const groups: Group[] = [];
  let current: Group | undefined;
  let ruleSeen = false;
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const m = FIELD.exec(raw.replace(/#.*$/, ''));
    if (!m) return;
    const field = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (field === 'user-agent') {
      if (!current || ruleSeen) {
        current = { tokens: [], agentLines: [], rules: [] };
        groups.push(current);
        ruleSeen = false;
      }
      const token = productToken(value);
      if (token) {
        current.tokens.push(token);
        current.agentLines.push(i + 1);
      }
    } else if (field === 'allow' || field === 'disallow') {
      if (!current) return; // rules outside any group are ignored
      ruleSeen = true;
      // Only a final `$` anchors (§2.2.3); one elsewhere is a literal dollar sign.
      const pattern = normalizePath(value).replace(/\$(?!$)/g, '%24');
      if (value) current.rules.push({ allow: field === 'allow', pattern, line: i + 1 });
    }
  });
  return { groups };
}

/** The rules that apply to `token`, and the group token that supplied them; null when no group applies. */
export function rulesFor(parsed: RobotsRules, token: string): { group: string; rules: RobotsRule[] } | null {
  const wanted = token.toLowerCase();
  const pick = (t: string) => parsed.groups.filter((g) => g.tokens.includes(t));
  const named = wanted && wanted !== '*' ? pick(wanted) : [];
  const chosen = named.length > 0 ? named : pick('*');
  if (chosen.length === 0) return null;
  const rules = chosen.flatMap((g) => g.rules).sort((a, b) => a.line - b.line);
  return { group: named.length > 0 ? wanted : '*', rules };
}

export function hasGroup(parsed: RobotsRules, token: string): boolean {
  return parsed.groups.some((g) => g.tokens.includes(token.toLowerCase()));
}

/** Octet length of a pattern for "most specific" (a final `$` is not an octet of the path). */
function specificity(pattern: string): number {
  return Buffer.byteLength(pattern.endsWith('$') ? pattern.slice(0, -1) : pattern, 'utf8');
}

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split('*');
  if (!path.startsWith(parts[0]!)) return false;
  let pos = parts[0]!.length;
  for (let k = 1; k < parts.length; k++) {
    const part = parts[k]!;
    if (k === parts.length - 1 && anchored) return path.length - part.length >= pos && path.endsWith(part);
    const at = path.indexOf(part, pos);
    if (at < 0) return false;
    pos = at + part.length;
  }
  return anchored ? pos === path.length : true;
}

/** The deciding rule for `path` (path plus query), or null when none matches (allowed). */
export function decidingRule(rules: readonly RobotsRule[], path: string): RobotsRule | null {
  const target = normalizeTarget(path || '/');
  if (target === '/robots.txt') return null;
  let best: RobotsRule | null = null;
  let bestLen = -1;
  for (const rule of rules) {
    if (!matches(rule.pattern, target)) continue;
    const len = specificity(rule.pattern);
    if (len > bestLen || (len === bestLen && rule.allow && !best!.allow)) {
      best = rule;
      bestLen = len;
    }
  }
  return best;
}

/** The path, parameters and query of a URL as robots.txt rules see it (no fragment). */
export function pathOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(url);
  const rest = m ? m[1]! : url.replace(/#.*$/, '');
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : `/${rest}`;
}
