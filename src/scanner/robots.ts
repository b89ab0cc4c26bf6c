/**
 * robots.txt per RFC 9309, wrapping robots-parser and fixing its known gaps:
 *   - the status-code rules (§2.3.1): 2xx text is parsed; 4xx means "no
 *     rules" (everything allowed); 5xx or unreachable would mean "assume
 *     complete disallow" to a crawler, which for a *measurement* is `unknown`
 *     (verdicts.md), as is a challenged/blocked or HTML answer;
 *   - the size cap (§2.5): only the first 500 KiB are parsed, cut at a line end;
 *   - percent-encoding normalisation (§2.2.2): octets of unreserved characters
 *     are decoded and remaining escapes upper-cased, in rules and in paths, so
 *     `Disallow: /%7Ejoe` and `/~joe` are the same rule.
 * Every answer keeps the group that matched and the deciding line as evidence.
 */
import { createRequire } from 'node:module';
import type { RosterAgent } from './roster.ts';

interface RobotsParser {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
}
// robots-parser is CommonJS with a hand-written d.ts that TypeScript's nodenext mode cannot call; load it plainly.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => RobotsParser;

export const ROBOTS_MAX_BYTES = 500 * 1024;

export type RobotsSays = 'allowed' | 'blocked' | 'partial' | 'unknown';

export interface RobotsFile {
  /** parsed: a text file was read; none: 4xx, no rules; unknown: could not be read. */
  state: 'parsed' | 'none' | 'unknown';
  reason: string;
  text: string;
  lines: string[];
  truncated: boolean;
  sitemaps: string[];
  /** `Content-Signal` / `Content-Usage` / `License` lines, with 1-based line numbers. */
  extensions: Array<{ field: 'content-signal' | 'content-usage' | 'license'; value: string; line: number }>;
  groupCount: number;
  unknownLines: number;
  ruleLines: number;
  /** Lower-cased user-agent tokens that have a group of their own. */
  namedAgents: string[];
}

export interface RobotsAnswer {
  says: RobotsSays;
  /** The user-agent the matching group is for (`*` for the wildcard), null when none applies. */
  group: string | null;
  /** The deciding line (1-based) and its text, when one decided. */
  line: number | null;
  lineText: string | null;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** RFC 3986 §6.2.2 normalisation of a path: decode unreserved octets, upper-case the other escapes. */
export function normalizePath(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

function capText(raw: string): { text: string; truncated: boolean } {
  const bytes = Buffer.from(raw, 'utf8');
  if (bytes.length <= ROBOTS_MAX_BYTES) return { text: raw, truncated: false };
  const head = bytes.subarray(0, ROBOTS_MAX_BYTES).toString('utf8');
  const cut = Math.max(head.lastIndexOf('\n'), 0);
  return { text: head.slice(0, cut), truncated: true };
}

const KNOWN_FIELDS = new Set(['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'host', 'content-signal', 'content-usage', 'license', 'clean-param', 'request-rate', 'visit-time']);

function unknownFile(reason: string): RobotsFile {
  return { state: 'unknown', reason, text: '', lines: [], truncated: false, sitemaps: [], extensions: [], groupCount: 0, unknownLines: 0, ruleLines: 0, namedAgents: [] };
}

/**
 * Read the fetched robots.txt. `edgeOutcome` is the classifier's view of the
 * response (a challenge page with status 200 must not be parsed as rules).
 */
export function readRobots(fetched: { ok: false } | { ok: true; status: number; contentType: string; body: string; edgeOutcome: string }): RobotsFile {
  if (!fetched.ok) return unknownFile('robots.txt could not be fetched');
  const { status, contentType, body, edgeOutcome } = fetched;
  if (edgeOutcome === 'challenge' || edgeOutcome === 'block' || edgeOutcome === 'rate-limited' || edgeOutcome === 'auth') {
    return unknownFile(`robots.txt request was met with a ${edgeOutcome} (status ${status})`);
  }
  if (status >= 500) return unknownFile(`robots.txt answered ${status}`);
  if (status >= 400) return { ...unknownFile(''), state: 'none', reason: `robots.txt answered ${status}: no rules (RFC 9309 §2.3.1.3)` };
  if (status < 200 || status >= 300) return unknownFile(`robots.txt answered ${status}`);
  if (/html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(body)) return unknownFile('robots.txt answered with an HTML page, not rules');

  const { text, truncated } = capText(body);
  const lines = text.split(/\r\n|\r|\n/);
  const out: RobotsFile = { state: 'parsed', reason: `robots.txt read (${status})`, text, lines, truncated, sitemaps: [], extensions: [], groupCount: 0, unknownLines: 0, ruleLines: 0, namedAgents: [] };
  let prevWasAgent = false;
  lines.forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const colon = line.indexOf(':');
    const field = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    const value = colon > 0 ? line.slice(colon + 1).trim() : '';
    if (!KNOWN_FIELDS.has(field)) out.unknownLines++;
    if (field === 'user-agent') {
      if (!prevWasAgent) out.groupCount++;
      const token = value.toLowerCase().split('/')[0]!.trim();
      if (token && token !== '*' && !out.namedAgents.includes(token)) out.namedAgents.push(token);
    }
    if (field === 'allow' || field === 'disallow') out.ruleLines++;
    if (field === 'sitemap' && value) out.sitemaps.push(value);
    if (field === 'content-signal' || field === 'content-usage' || field === 'license') out.extensions.push({ field, value, line: i + 1 });
    prevWasAgent = field === 'user-agent';
  });
  return out;
}

interface ParsedRule { pattern: string; allow: boolean; lineNumber: number }

/** Memoised parser per file (the file object is immutable once read). */
const parsers = new WeakMap<RobotsFile, RobotsParser>();

function parserFor(file: RobotsFile): RobotsParser {
  let p = parsers.get(file);
  if (!p) {
    const normalized = file.lines
      .map((l) => l.replace(/^(\s*(?:allow|disallow)\s*:\s*)(\S*)/i, (_m, head: string, path: string) => head + normalizePath(path)))
      .join('\n');
    p = robotsParser('https://robots.invalid/robots.txt', normalized);
    parsers.set(file, p);
  }
  return p;
}

/** Rules robots-parser holds for one lower-cased token (its internal table; read-only use keeps us in step with its group choice). */
function groupRules(file: RobotsFile, token: string): ParsedRule[] | undefined {
  return (parserFor(file) as unknown as { _rules: Record<string, ParsedRule[]> })._rules[token];
}

/** What robots.txt says about `path` for one agent (RFC 9309 matching, longest match, Allow wins ties). */
export function robotsSays(file: RobotsFile, agent: Pick<RosterAgent, 'token' | 'robotsFallback'>, path = '/'): RobotsAnswer {
  if (file.state === 'unknown') return { says: 'unknown', group: null, line: null, lineText: null };
  if (file.state === 'none') return { says: 'allowed', group: null, line: null, lineText: null };
  let token = agent.token.toLowerCase();
  if (!groupRules(file, token) && agent.robotsFallback && groupRules(file, agent.robotsFallback.toLowerCase())) token = agent.robotsFallback.toLowerCase();
  const rules = groupRules(file, token) ?? groupRules(file, '*');
  const group = groupRules(file, token) ? token : rules ? '*' : null;
  if (!rules) return { says: 'allowed', group: null, line: null, lineText: null };
  const parser = parserFor(file);
  const url = `https://robots.invalid${normalizePath(path)}`;
  const allowed = parser.isAllowed(url, token) !== false;
  const quote = (n: number | null) => (n && n > 0 ? { line: n, lineText: file.lines[n - 1]!.trim() } : { line: null, lineText: null });
  if (!allowed) return { says: 'blocked', group, ...quote(parser.getMatchingLineNumber(url, token)) };
  const firstDisallow = rules.find((r) => !r.allow);
  if (firstDisallow) return { says: 'partial', group, ...quote(firstDisallow.lineNumber) };
  return { says: 'allowed', group, ...quote(parser.getMatchingLineNumber(url, token)) };
}
