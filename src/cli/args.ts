/**
 * Command line -> a typed request. Kept free of heavy imports: `--help`,
 * `--version` and usage errors must answer before anything else loads.
 */
import { parseArgs } from 'node:util';
import { leadProblem } from '../scans/lead.ts';
import { HEADERS_ENV, parseExtraHeaders, type ExtraHeader } from './headers.ts';
import { parseIntent, type ScanIntent } from '../scanner/intent-request.ts';
import { SCORING_RUBRIC_VERSIONS } from '../scanner/versions.ts';

export const PROFILES = ['general', 'dev-platform', 'docs', 'publisher'] as const;
export type ProfileName = (typeof PROFILES)[number];
export const FORMATS = ['text', 'json', 'markdown', 'junit'] as const;
export type Format = (typeof FORMATS)[number];
export type AssertLevel = 'error' | 'warn';
export interface CheckAssertion { id: string; level: AssertLevel }

// Set by esbuild's `define` when `npm run pack -- --api-default <url>` builds a packaged CLI;
// undefined in a checkout, where a hosted scan must be told its API (no silent localhost).
declare const __AGENT_READINESS_API_DEFAULT__: string | undefined;
export const PACKAGED_API_DEFAULT: string | undefined = typeof __AGENT_READINESS_API_DEFAULT__ === 'string' && __AGENT_READINESS_API_DEFAULT__ ? __AGENT_READINESS_API_DEFAULT__ : undefined;

export interface ScanOptions {
  target: string;
  name?: string;
  email?: string;
  minScore?: number;
  profile?: ProfileName;
  /** --intent training=block,search=allow: what the owner wants each role to get (the report's `intent`; never the score). */
  intent?: ScanIntent;
  /** --rubric: the rubric that scores the report (and that --assert and --baseline are read with); the service's current one when absent. */
  rubric?: string;
  fresh: boolean;
  /** format === 'json' (kept for the code paths that only ask "one JSON document?"). */
  json: boolean;
  format: Format;
  asserts: CheckAssertion[];
  baseline?: string;
  writeBaseline: boolean;
  /** Absent only for local scans, which contact no API. */
  api: string;
  /**
   * --header / AGENT_READINESS_HEADERS: an authenticated preview, scanned from this machine and
   * sent only to the scanned origin (src/cli/preview.ts). Values are secrets: never printed.
   */
  headers?: ExtraHeader[];
}

/** The developer's own server, given as localhost:<port> or 127.0.0.1:<port> (optionally with a scheme). */
export interface LocalTarget { scheme: 'http' | 'https'; host: 'localhost' | '127.0.0.1' | '::1'; port: number; display: string }

export type Parsed =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string }
  | { kind: 'scan'; options: ScanOptions; local: LocalTarget | null }
  | { kind: 'diff'; options: DiffOptions };

/** `agent-readiness diff <scanId> <otherScanId>`: what changed between two archived reports. */
export interface DiffOptions { before: string; after: string; api: string; format: Format }

export const USAGE = `agent-readiness: how ready is your site for AI agents?

Usage:
  agent-readiness scan <target> --name <name> --email <email> [options]
  agent-readiness scan localhost:<port> [options]
  agent-readiness scan <preview host> --header 'Name: value' [options]
  agent-readiness diff <scanId> <otherScanId> [--api <URL>] [--format <F>]
  agent-readiness batch <file> --key <key> [batch options]
  agent-readiness changes [--since <cursor>] --key <key> [--api <URL>] [--format text|jsonl]
  agent-readiness --help | --version

Targets:
  example.com                 a public domain (hosted scan)
  https://www.example.com/x   a pasted URL: the service keeps only the domain
  localhost:<port>            local scan of your own server; also 127.0.0.1:<port>,
                              [::1]:<port>, optionally with http:// or https://

A hosted scan runs on the service's two cloud networks, reruns the same probe
grid from your own network, attaches it to the report as a self-reported
vantage, and prints the result. A local scan runs the rubric on this machine
against your server: nothing is uploaded and no hosted service is contacted.
An authenticated preview (--header) runs the rubric on this machine against a
protected deployment, its headers sent to that origin only, never to another
host, a redirect off it or the API; it needs no contact and uploads nothing.

diff prints what changed from the report <scanId> to the report <otherScanId>
(two reports of one domain): headline, score, agents, robots.txt line by line,
checks and edge vendors; it exits 0 once compared, 2 when it could not compare.

batch submits a file of domains (one per line, or a CSV with a domain column;
- reads stdin) as one batch with a partner API key, shows its progress (a bar
on a terminal, a plain line per tenth elsewhere), then writes one row per
domain: domain, state, scanId, reportUrl, headline, score, confidence, error.
The batch runs on the service whether or not the CLI waits.

Batch options:
  --key <key>         the partner API key (else $AGENT_READINESS_KEY); never printed
  --api <URL>         as for scan
  --format <F>        csv, jsonl or text (the default, unless --out ends in
                      .csv, .jsonl or .ndjson)
  --out <file>        write the rows to <file> instead of stdout
  --wait              wait for the batch and write its rows (the default)
  --no-wait           print the batch's id and links at once and exit
  --profile <P>       pin the rubric profile of every item
  --label <text>      a label of your own for the batch

changes prints what changed on the key's watches since <cursor> (every
event without --since, as far back as the service keeps them: 30 days), one
line per event, then "next cursor: <cursor>" to pass as --since next time.
It exits 0 once read, 2 when the API refused or could not be reached.

Batch exit codes:
  0  every domain in the file was scanned
  1  a usage error: a missing file or key, an unreadable file, an --out file
     that cannot be written, a bad option or --format
  2  could not test: a line rejected as not a scannable domain, an item that
     failed or was cancelled, or the API refusing (401 key refused, 429 over
     the key's daily budget, ...) or unreachable

Options:
  --name <name>       your name (required for hosted scans; sent as the scan's contact)
  --email <email>     your email (required for hosted scans; the report link is mailed there)
  --api <URL>         the hosted API (else $AGENT_READINESS_API${PACKAGED_API_DEFAULT ? `, else ${PACKAGED_API_DEFAULT}` : '; required for hosted scans'})
  --profile <P>       pin the rubric profile: general, dev-platform, docs, publisher
  --intent <R=W,...>  what you want each role of agent to get, e.g.
                      training=block,search=allow (roles: training, search,
                      user-fetch, archive; wishes: allow, block, charge); the
                      report says per role whether robots.txt and the edge do
                      it. Never changes the score
  --rubric <R>        score with this rubric: ${SCORING_RUBRIC_VERSIONS.join(' (default) or ')}
  --fresh             bypass the 45-second coalescing window (a new scan and upload token)
  --min-score <N>     gate: exit 1 when the score is below N (0-100)
  --assert <id>[=error|warn]
                      gate on one check (repeatable): exit 1 when it fails (error,
                      the default), exit 2 when the scan could not decide it;
                      warn only reports either. Ids: GET /api/checks
  --baseline <file>   gate: exit 1 when a check that passed in <file> now fails,
                      exit 2 when one it decided is now undecided; every
                      regression and improvement is named. A baseline written
                      under another rubric is "rubric changed" (exit 2, nothing
                      compared): refresh it with --write-baseline, or scan
                      with --rubric <its rubric>
  --write-baseline    write this run's check results to the --baseline file
                      (refused when the scan decided too few checks for a score)
  --format <F>        text (default), json, markdown (for pull-request comments)
                      or junit (one test case per check); markdown is also
                      appended to $GITHUB_STEP_SUMMARY when that is set
  --json              the same as --format json: one JSON document on stdout
  --header 'Name: value'
                      send this header to the scanned origin only (repeatable),
                      e.g. a Vercel protection bypass; or put one per line in
                      $${HEADERS_ENV} to keep secrets out of argv
                      and logs. Values are never printed
  -h, --help          this text
  -v, --version       the CLI version

Network: probes go direct, or through HTTPS_PROXY / HTTP_PROXY honouring NO_PROXY
(the proxy is asked for CONNECT host:port and resolves the name, as with curl;
user:password in the proxy URL is sent as Proxy-Authorization).

Exit codes (scan and diff):
  0  the scan completed and every gate passed (or there was none)
  1  a gate failed: score below --min-score, an --assert error check failed,
     or a check that passed in the --baseline now fails
  2  could not test:
     - a usage error (unknown option or command, missing target, missing or
       invalid contact, bad --min-score, --profile, --format or --assert level,
       a malformed --header or ${HEADERS_ENV} line, a bad --intent)
     - no API for a hosted scan (neither --api nor AGENT_READINESS_API)
     - the API unreachable, or any 4xx/5xx answer to the scan (400 bad domain,
       403 excluded, 429 rate limited with the wait printed, 502 ...)
     - an --assert id that is not in the check catalog (the valid ids are listed)
     - the check catalog unreadable when --assert or --baseline needs it
     - a --baseline file missing, unreadable, stale (ids that no longer
       exist), written for another domain, or under another rubric than the
       scan's ("rubric changed": nothing compared)
     - an --assert error check the scan could not decide (inconclusive, error,
       skipped or absent), or a check the --baseline decided that this scan
       could not; each is named with its reason
     - --write-baseline on a scan that decided fewer checks than a score needs
     - under --min-score: no score or a headline of unknown
     - local scans: nothing listening on the port
`;

const LOCAL = /^(?:(https?):\/\/)?(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?\/?$/i;

export function parseLocalTarget(target: string): LocalTarget | null {
  const m = LOCAL.exec(target.trim());
  if (!m) return null;
  const scheme = (m[1]?.toLowerCase() ?? 'http') as 'http' | 'https';
  const host = m[2]!.toLowerCase() === '[::1]' ? '::1' : (m[2]!.toLowerCase() as 'localhost' | '127.0.0.1');
  const port = m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80;
  if (port < 1 || port > 65535) return null;
  const hostPart = host === '::1' ? '[::1]' : host;
  return { scheme, host, port, display: `${hostPart}:${port}` };
}

export function parseCli(argv: readonly string[], env: Record<string, string | undefined>): Parsed {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' }, email: { type: 'string' }, 'min-score': { type: 'string' },
        profile: { type: 'string' }, rubric: { type: 'string' }, intent: { type: 'string' }, fresh: { type: 'boolean' }, json: { type: 'boolean' },
        api: { type: 'string' }, assert: { type: 'string', multiple: true }, baseline: { type: 'string' },
        'write-baseline': { type: 'boolean' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' },
        header: { type: 'string', multiple: true },
      },
    });
  } catch (err) {
    return { kind: 'usage-error', message: (err as Error).message };
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };
  const [command, target, ...rest] = positionals;
  if (command === undefined) return { kind: 'help' };
  if (command === 'diff') return parseDiff(v, positionals.slice(1), env);
  if (command !== 'scan') return { kind: 'usage-error', message: `unknown command "${command}"; the commands are "scan" and "diff"` };
  if (!target) return { kind: 'usage-error', message: 'scan needs a domain, e.g. agent-readiness scan example.com --name "Ada" --email ada@example.com' };
  if (rest.length) return { kind: 'usage-error', message: `unexpected argument "${rest[0]}"` };

  let minScore: number | undefined;
  if (v['min-score'] !== undefined) {
    minScore = Number(v['min-score']);
    if (!/^\d{1,3}$/.test(v['min-score']) || minScore > 100) return { kind: 'usage-error', message: `--min-score must be an integer from 0 to 100, not "${v['min-score']}"` };
  }
  if (v.profile !== undefined && !(PROFILES as readonly string[]).includes(v.profile)) {
    return { kind: 'usage-error', message: `--profile must be one of ${PROFILES.join(', ')}, not "${v.profile}"` };
  }
  if (v.rubric !== undefined && !SCORING_RUBRIC_VERSIONS.includes(v.rubric)) {
    return { kind: 'usage-error', message: `--rubric must be one of ${SCORING_RUBRIC_VERSIONS.join(', ')}, not "${v.rubric}"` };
  }
  let intent: ScanIntent | undefined;
  if (v.intent !== undefined) {
    const parsedIntent = parseIntent(v.intent);
    if (!parsedIntent.ok) return { kind: 'usage-error', message: parsedIntent.message };
    intent = parsedIntent.intent;
  }
  const format = formatOf(v);
  if (typeof format !== 'string') return format;
  const asserts: CheckAssertion[] = [];
  for (const raw of v.assert ?? []) {
    const m = /^([^=\s]+)(?:=(error|warn))?$/.exec(raw.trim());
    if (!m) return { kind: 'usage-error', message: `--assert takes <check-id>[=error|warn], not "${raw}"` };
    asserts.push({ id: m[1]!, level: (m[2] ?? 'error') as AssertLevel });
  }
  if (v['write-baseline'] && !v.baseline) return { kind: 'usage-error', message: '--write-baseline needs --baseline <file> to write to' };

  const local = parseLocalTarget(target);
  const extra = parseExtraHeaders(v.header ?? [], env[HEADERS_ENV]);
  if (!extra.ok) return { kind: 'usage-error', message: extra.message };
  // An authenticated preview runs here and contacts no API: like a local scan, it needs no contact.
  const here = local !== null || extra.headers.length > 0;
  // A hosted scan is attributed to a contact (the same policy as the web form); a local one contacts nobody.
  if (!here && (!v.name || !v.email)) {
    return { kind: 'usage-error', message: 'a hosted scan needs your contact details: --name <name> --email <email>' };
  }
  // The service's own lead rules (the contract's Lead schema), checked before anything is sent.
  const problem = here ? null : leadProblem({ name: v.name, email: v.email });
  if (problem) return { kind: 'usage-error', message: problem };
  const api = v.api ?? (env.AGENT_READINESS_API || PACKAGED_API_DEFAULT);
  if (!here && !api) {
    return { kind: 'usage-error', message: 'a hosted scan needs the API address: pass --api <URL> or set AGENT_READINESS_API (for example AGENT_READINESS_API=https://agent-readiness.example)' };
  }
  const apiProblem = api === undefined ? null : badApi(api);
  if (apiProblem) return apiProblem;
  const options: ScanOptions = {
    target, fresh: Boolean(v.fresh), json: format === 'json', format, asserts, writeBaseline: Boolean(v['write-baseline']), api: api ?? '',
    ...(v.baseline !== undefined ? { baseline: v.baseline } : {}),
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.email !== undefined ? { email: v.email } : {}),
    ...(minScore !== undefined ? { minScore } : {}),
    ...(v.profile !== undefined ? { profile: v.profile as ProfileName } : {}),
    ...(intent ? { intent } : {}),
    ...(v.rubric !== undefined ? { rubric: v.rubric } : {}),
    ...(extra.headers.length ? { headers: extra.headers } : {}),
  };
  return { kind: 'scan', options, local };
}

type Values = { format?: string | undefined; json?: boolean | undefined; api?: string | undefined } & Record<string, unknown>;

function formatOf(v: Values): Format | { kind: 'usage-error'; message: string } {
  if (v.format === undefined) return v.json ? 'json' : 'text';
  if (!(FORMATS as readonly string[]).includes(v.format)) return { kind: 'usage-error', message: `--format must be one of ${FORMATS.join(', ')}, not "${v.format}"` };
  if (v.json && v.format !== 'json') return { kind: 'usage-error', message: `--json means --format json; it cannot be combined with --format ${v.format}` };
  return v.format as Format;
}

function badApi(api: string): { kind: 'usage-error'; message: string } | null {
  try {
    const u = new URL(api);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    return null;
  } catch {
    return { kind: 'usage-error', message: `the API address "${api}" is not an http(s) URL` };
  }
}

const REPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIFF_OPTIONS = new Set(['api', 'format', 'json']);

/** `diff <scanId> <otherScanId>`: two report ids (or report links), the API, a format. */
function parseDiff(v: Values, args: readonly string[], env: Record<string, string | undefined>): Parsed {
  const other = Object.keys(v).find((k) => v[k] !== undefined && !DIFF_OPTIONS.has(k));
  if (other) return { kind: 'usage-error', message: `--${other} does not apply to diff (it takes --api and --format)` };
  if (args.length !== 2) return { kind: 'usage-error', message: 'diff needs two report ids, e.g. agent-readiness diff 3f1c2d7e-8a4b-4c5d-9e6f-7a8b9c0d1e2f 9b7e5c3a-1d2f-4e6a-8b0c-2d4f6a8c0e1b' };
  // A pasted report link (…/r/<id>) is taken for its id, as a pasted URL is for scan.
  const ids = args.map((a) => /\/r\/([^/?#]+)\/?(?:[?#].*)?$/.exec(a)?.[1] ?? a);
  const bad = ids.find((id) => !REPORT_ID.test(id));
  if (bad !== undefined) return { kind: 'usage-error', message: `"${bad}" is not a report id (36 characters, letters, digits and four dashes)` };
  const format = formatOf(v);
  if (typeof format !== 'string') return format;
  const api = v.api ?? (env.AGENT_READINESS_API || PACKAGED_API_DEFAULT);
  if (!api) return { kind: 'usage-error', message: 'diff needs the API address: pass --api <URL> or set AGENT_READINESS_API' };
  const apiProblem = badApi(api);
  if (apiProblem) return apiProblem;
  return { kind: 'diff', options: { before: ids[0]!.toLowerCase(), after: ids[1]!.toLowerCase(), api, format } };
}
