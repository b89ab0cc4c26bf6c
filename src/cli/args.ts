/**
 * Command line -> a typed request. Kept free of heavy imports: `--help`,
 * `--version` and usage errors must answer before anything else loads.
 */
import { parseArgs } from 'node:util';
import { leadProblem } from '../scans/lead.ts';

export const PROFILES = ['general', 'dev-platform', 'docs', 'publisher'] as const;
export type ProfileName = (typeof PROFILES)[number];
export const DEFAULT_API = 'http://localhost:8080';

export interface ScanOptions {
  target: string;
  name?: string;
  email?: string;
  minScore?: number;
  profile?: ProfileName;
  fresh: boolean;
  json: boolean;
  api: string;
}

/** The developer's own server, given as localhost:<port> or 127.0.0.1:<port> (optionally with a scheme). */
export interface LocalTarget { scheme: 'http' | 'https'; host: 'localhost' | '127.0.0.1' | '::1'; port: number; display: string }

export type Parsed =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string }
  | { kind: 'scan'; options: ScanOptions; local: LocalTarget | null };

export const USAGE = `agent-readiness: how ready is your site for AI agents?

Usage:
  agent-readiness scan <domain> --name <name> --email <email> [options]
  agent-readiness scan localhost:<port> [options]
  agent-readiness --help | --version

Runs the hosted scan (two cloud networks), reruns the same probe grid from
your own network, attaches it to the report as a self-reported vantage, and
prints the result. localhost:<port> (or 127.0.0.1:<port>) runs the rubric on
this machine against your local server: nothing is uploaded and no hosted
service is contacted.

Options:
  --name <name>       your name (required for hosted scans; sent as the scan's contact)
  --email <email>     your email (required for hosted scans; the report link is mailed there)
  --min-score <N>     gate: exit 1 when the score is below N (0-100); exit 2 when
                      there is no score or the headline is unknown
  --profile <P>       pin the rubric profile: general, dev-platform, docs, publisher
  --fresh             bypass the 45-second coalescing window (a new scan and upload token)
  --json              print one JSON document on stdout and nothing else
  --api <URL>         the hosted API (default $AGENT_READINESS_API or ${DEFAULT_API})
  -h, --help          this text
  -v, --version       the CLI version

Network: probes go direct, or through HTTPS_PROXY / HTTP_PROXY honouring NO_PROXY.
Exit codes: 0 scan completed and the gate passed or was absent; 1 gate failed;
            2 could not test (API unreachable or refusing, rate limited, no score).
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
        profile: { type: 'string' }, fresh: { type: 'boolean' }, json: { type: 'boolean' },
        api: { type: 'string' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' },
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
  if (command !== 'scan') return { kind: 'usage-error', message: `unknown command "${command}"; the only command is "scan"` };
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
  const api = v.api ?? (env.AGENT_READINESS_API || DEFAULT_API);
  try {
    const u = new URL(api);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    return { kind: 'usage-error', message: `the API address "${api}" is not an http(s) URL` };
  }
  const local = parseLocalTarget(target);
  // A hosted scan is attributed to a contact (the same policy as the web form); a local one contacts nobody.
  if (!local && (!v.name || !v.email)) {
    return { kind: 'usage-error', message: 'a hosted scan needs your contact details: --name <name> --email <email>' };
  }
  // The service's own lead rules (the contract's Lead schema), checked before anything is sent.
  const problem = local ? null : leadProblem({ name: v.name, email: v.email });
  if (problem) return { kind: 'usage-error', message: problem };
  const options: ScanOptions = {
    target, fresh: Boolean(v.fresh), json: Boolean(v.json), api,
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.email !== undefined ? { email: v.email } : {}),
    ...(minScore !== undefined ? { minScore } : {}),
    ...(v.profile !== undefined ? { profile: v.profile as ProfileName } : {}),
  };
  return { kind: 'scan', options, local };
}
