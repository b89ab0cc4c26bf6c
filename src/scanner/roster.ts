/**
 * Roster lookup by version. Only roster-v1.0 exists; the map is here so a
 * report carrying an older version can still derive its probe-grid keys.
 */
import { ROSTER_VERSION } from './versions.ts';
import { ROSTER_V1_0, BROWSER_UA, type RosterAgent, type Intent } from './data/roster-v1.0.ts';

export type { RosterAgent, Intent };
export { BROWSER_UA };

const ROSTERS: Record<string, readonly RosterAgent[]> = { 'roster-v1.0': ROSTER_V1_0 };

export function getRoster(version: string = ROSTER_VERSION): readonly RosterAgent[] {
  const roster = ROSTERS[version];
  if (!roster) throw new Error(`unknown roster version ${version}`);
  return roster;
}

export function probeableAgents(version?: string): RosterAgent[] {
  return getRoster(version).filter((a) => !a.tokenOnly && a.ua !== null);
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
