/**
 * robots.txt per RFC 9309 (groups and matching in robots-rules.ts):
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
import type { RosterAgent } from './roster.ts';
import { notTheFile } from './file-judge.ts';
import { decidingRule, hasGroup, normalizePath, parseRobotsRules, rulesFor, type RobotsRules } from './robots-rules.ts';

export { normalizePath };

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
  extensions: Array<{ field: 'content-signal' | 'content-usage' | 'license' | 'agentmap'; value: string; line: number }>;
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

function capText(raw: string): { text: string; truncated: boolean } {
  const bytes = Buffer.from(raw, 'utf8');
  if (bytes.length <= ROBOTS_MAX_BYTES) return { text: raw, truncated: false };
  const head = bytes.subarray(0, ROBOTS_MAX_BYTES).toString('utf8');
  const cut = Math.max(head.lastIndexOf('\n'), 0);
  return { text: head.slice(0, cut), truncated: true };
}

const KNOWN_FIELDS = new Set(['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'host', 'content-signal', 'content-usage', 'license', 'clean-param', 'request-rate', 'visit-time']);

/** The edge outcomes that leave robots.txt unread, as the reason names them ("a auth" read badly). */
const EDGE_WORDS = new Map([['challenge', 'a challenge'], ['block', 'a block'], ['rate-limited', 'a rate limit'], ['auth', 'a login requirement']]);

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
  const turnedAway = EDGE_WORDS.get(edgeOutcome);
  if (turnedAway) return unknownFile(`robots.txt was answered with ${turnedAway} (status ${status})`);
  if (status >= 500) return unknownFile(`robots.txt answered ${status}`);
  if (status >= 400) return { ...unknownFile(''), state: 'none', reason: `robots.txt answered ${status}: no rules (RFC 9309 §2.3.1.3)` };
  if (status < 200 || status >= 300) return unknownFile(`robots.txt answered ${status}`);
  // The file judgement every discovery file gets (file-judge.ts): an HTML page or a "not found"
  // message with status 200 means the file is absent. Unlike a 404, to which RFC 9309 gives a
  // meaning (no rules), such an answer has none a crawler must follow, so what it says is unknown.
  const instead = notTheFile('robots', contentType, body);
  if (instead) return unknownFile(`robots.txt is absent (${instead.note})`);

  const { text, truncated } = capText(body);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const out: RobotsFile = { state: 'parsed', reason: `robots.txt read (${status})`, text, lines, truncated, sitemaps: [], extensions: [], groupCount: 0, unknownLines: 0, ruleLines: 0, namedAgents: [] };
  lines.forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const colon = line.indexOf(':');
    const field = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    const value = colon > 0 ? line.slice(colon + 1).trim() : '';
    if (!KNOWN_FIELDS.has(field)) out.unknownLines++;
    if (field === 'user-agent') {
      const token = value.toLowerCase().split('/')[0]!.trim();
      // A `__usage_` token (draft-kelley-aipref-training-preference-signal-00) names a preference, not an agent (aipref.ts).
      if (token && token !== '*' && !token.startsWith('__usage_') && !out.namedAgents.includes(token)) out.namedAgents.push(token);
    }
    if (field === 'allow' || field === 'disallow') out.ruleLines++;
    if (field === 'sitemap' && value) out.sitemaps.push(value);
    if (field === 'content-signal' || field === 'content-usage' || field === 'license' || field === 'agentmap') out.extensions.push({ field, value, line: i + 1 });
  });
  out.groupCount = rulesOf(out).groups.length;
  return out;
}

/** Parsed groups per file (the file object is immutable once read), so each is parsed once. */
const parsedFiles = new WeakMap<RobotsFile, RobotsRules>();

function rulesOf(file: RobotsFile): RobotsRules {
  let parsed = parsedFiles.get(file);
  if (!parsed) {
    parsed = parseRobotsRules(file.lines.join('\n'));
    parsedFiles.set(file, parsed);
  }
  return parsed;
}

/** What robots.txt says about `path` for one agent (RFC 9309 matching, longest match, Allow wins ties). */
export function robotsSays(file: RobotsFile, agent: Pick<RosterAgent, 'token' | 'robotsFallback'>, path = '/'): RobotsAnswer {
  if (file.state === 'unknown') return { says: 'unknown', group: null, line: null, lineText: null };
  if (file.state === 'none') return { says: 'allowed', group: null, line: null, lineText: null };
  const parsed = rulesOf(file);
  // An agent documented to obey another's group (Applebot follows Googlebot) does so only when it has none of its own.
  const token = !hasGroup(parsed, agent.token) && agent.robotsFallback && hasGroup(parsed, agent.robotsFallback) ? agent.robotsFallback : agent.token;
  const selected = rulesFor(parsed, token);
  if (!selected) return { says: 'allowed', group: null, line: null, lineText: null };
  const { group, rules } = selected;
  const quote = (n: number | undefined) => (n ? { line: n, lineText: file.lines[n - 1]!.trim() } : { line: null, lineText: null });
  const rule = decidingRule(rules, path);
  if (rule && !rule.allow) return { says: 'blocked', group, ...quote(rule.line) };
  const firstDisallow = rules.find((r) => !r.allow);
  if (firstDisallow) return { says: 'partial', group, ...quote(firstDisallow.line) };
  return { says: 'allowed', group, ...quote(rule?.line) };
}
