/**
 * Roster lookup by version. Every published roster stays loadable, so a report archived under
 * roster-v1.0 still derives its grid keys and the requests that judged it (and the CLI reruns
 * an older report's grid as that roster sent it).
 */
import { ROSTER_VERSION } from './versions.ts';
import { ROSTER_V1_0, BROWSER_UA as BROWSER_UA_V1_0, type RosterAgent, type Intent } from './data/roster-v1.0.ts';
import { CONTROL_V1_1, PRODUCTS_V1_1, ROSTER_V1_1 } from './data/roster-v1.1.ts';
import { headerValue, type ArrivalRequest, type HeaderList, type ProductArrival } from './data/arrival.ts';

export type { RosterAgent, Intent, ArrivalRequest, HeaderList, ProductArrival };
export { headerValue };

interface RosterSet { agents: readonly RosterAgent[]; control: ArrivalRequest | null; products: readonly ProductArrival[] }

const ROSTERS: Record<string, RosterSet> = {
  'roster-v1.0': { agents: ROSTER_V1_0, control: null, products: [] },
  'roster-v1.1': { agents: ROSTER_V1_1, control: CONTROL_V1_1, products: PRODUCTS_V1_1 },
};

export const ROSTER_VERSIONS: readonly string[] = Object.keys(ROSTERS);

function rosterSet(version: string): RosterSet {
  const set = ROSTERS[version];
  if (!set) throw new Error(`unknown roster version ${version}`);
  return set;
}

export function getRoster(version: string = ROSTER_VERSION): readonly RosterAgent[] {
  return rosterSet(version).agents;
}

export function probeableAgents(version?: string): RosterAgent[] {
  return getRoster(version).filter((a) => !a.tokenOnly && a.ua !== null);
}

/** roster-v1.0 sent every UA with these, lowercase, in this order. */
function v1_0Request(ua: string, accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'): HeaderList {
  return [['user-agent', ua], ['accept', accept], ['accept-language', 'en-US,en;q=0.9'], ['accept-encoding', 'gzip, deflate, br']];
}

/** Every header `agent` sends under `version`, in order. */
export function agentHeaders(agent: RosterAgent): HeaderList {
  if (agent.request) return agent.request.headers;
  if (agent.ua === null) throw new Error(`${agent.token} is token-only and sends nothing`);
  return v1_0Request(agent.ua);
}

/** The browser control's navigation request under `version`. */
export function controlHeaders(version: string = ROSTER_VERSION): HeaderList {
  return rosterSet(version).control?.headers ?? v1_0Request(BROWSER_UA_V1_0);
}

/** The browser control's whole request with its provenance (roster-v1.1 on). */
export function controlRequest(version: string = ROSTER_VERSION): ArrivalRequest | null {
  return rosterSet(version).control;
}

/** The browser control's User-Agent under `version`. */
export function browserUserAgent(version: string = ROSTER_VERSION): string {
  return headerValue(controlHeaders(version), 'user-agent')!;
}

/** The current roster's browser User-Agent. */
export const BROWSER_UA = browserUserAgent();

/** Products that share a token (or carry none) and ask for Markdown their own way. */
export function productArrivals(version: string = ROSTER_VERSION): readonly ProductArrival[] {
  return rosterSet(version).products;
}

/**
 * The same header list with Accept set to `accept` in place (a browser asking for a file keeps
 * every other header of its navigation), or unchanged when `accept` is undefined.
 */
export function withAccept(list: HeaderList, accept: string | undefined): HeaderList {
  if (accept === undefined) return list;
  let found = false;
  const out = list.map(([n, v]): readonly [string, string] => (n.toLowerCase() === 'accept' ? ((found = true), [n, accept]) : [n, v]));
  return found ? out : [...out, ['accept', accept]];
}

/** Which roster agent a user-agent string identifies as (token matched as a whole word), if any. */
export function agentForUserAgent(ua: string, version?: string): RosterAgent | undefined {
  const hay = ua.toLowerCase();
  return probeableAgents(version).find((a) => {
    const t = a.token.toLowerCase();
    let i = hay.indexOf(t);
    while (i >= 0) {
      const before = i === 0 ? ' ' : hay[i - 1]!;
      const after = hay[i + t.length] ?? ' ';
      if (!/[a-z0-9_-]/.test(before) && !/[a-z0-9_-]/.test(after)) return true;
      i = hay.indexOf(t, i + 1);
    }
    return false;
  });
}
