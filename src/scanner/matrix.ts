/**
 * Matrix entries per roster agent, by the first-match rules of
 * shared/design/verdicts.md ("Matrix verdict per agent").
 */
import { DENIALS } from './classify.ts';
import { vendorName } from './fingerprints.ts';
import { robotsSays, type RobotsAnswer, type RobotsFile } from './robots.ts';
import type { RosterAgent } from './roster.ts';
import { NETWORKS, type FetchedView, type MatrixEntry, type NetworkName } from './types.ts';

export interface AgentRow {
  agent: RosterAgent;
  entry: MatrixEntry;
  robots: RobotsAnswer;
  /** Networks with a decided cell, and which of those denied / passed. */
  decided: NetworkName[];
  denied: NetworkName[];
  passed: NetworkName[];
  /** Decided on both networks with different answers. */
  disagree: boolean;
}

export interface MatrixInput {
  roster: readonly RosterAgent[];
  robots: RobotsFile;
  /** The copy of robots.txt each agent's verdict comes from (robots-copies.ts); `robots` when absent. */
  robotsFor?: (agent: RosterAgent) => RobotsFile;
  controls: Record<NetworkName, FetchedView>;
  /** Grid cells per token and network (absent for token-only agents). */
  cells: Record<string, Record<NetworkName, FetchedView>>;
  /** Visible text length of a passing response, by evidence id. */
  textLength: (view: FetchedView) => number;
}

/** A network is usable when its control passed. */
export function usableNetworks(controls: Record<NetworkName, FetchedView>): NetworkName[] {
  return NETWORKS.filter((n) => controls[n].outcome === 'pass');
}

function robotsNote(a: RobotsAnswer): string {
  if (a.says === 'unknown') return 'robots.txt could not be read';
  if (a.line === null) return `robots.txt: ${a.says}${a.group ? ` (group "${a.group}")` : ' (no rules apply)'}`;
  return `robots.txt: ${a.says} by line ${a.line} "${a.lineText}" (group "${a.group}")`;
}

export function buildRow(agent: RosterAgent, input: MatrixInput, usable: readonly NetworkName[]): AgentRow {
  const robots = robotsSays(input.robotsFor?.(agent) ?? input.robots, agent);
  const notes = [robotsNote(robots)];
  if (agent.contextOnly) notes.push('probed for context only: not counted in the headline or the score');
  const base = { ua: agent.token, intent: agent.intent, robotsSays: robots.says };
  if (agent.tokenOnly) {
    notes.push('token-only agent: it has no crawler of its own, so it is judged from robots.txt alone');
    return { agent, robots, decided: [], denied: [], passed: [], disagree: false, entry: { ...base, edgeDoes: null, httpStatus: null, verdict: 'not-probeable', measurement: 'inferred', attributedVendors: [], notes } };
  }
  const cells = input.cells[agent.token]!;
  const edgeDoes = { networkA: cells.networkA.outcome, networkB: cells.networkB.outcome };
  const httpStatus = { networkA: cells.networkA.status, networkB: cells.networkB.status };
  const decided = NETWORKS.filter((n) => usable.includes(n) && (cells[n].outcome === 'pass' || DENIALS.has(cells[n].outcome)));
  const denied = decided.filter((n) => DENIALS.has(cells[n].outcome));
  const passed = decided.filter((n) => cells[n].outcome === 'pass');
  const vendorIds = [...new Set(NETWORKS.flatMap((n) => cells[n].record.vendors))];
  for (const n of denied) {
    const v = cells[n].record.vendors.map(vendorName);
    const offer = cells[n].record.markers.find((m) => m.startsWith('payment offer: '));
    notes.push(`requests identifying as ${agent.token} from ${n} met a ${cells[n].outcome} (HTTP ${cells[n].status}${v.length ? `, ${v.join(', ')}` : ''})${offer ? `; ${offer}` : ''}`);
  }
  const row = (verdict: MatrixEntry['verdict'], measurement: MatrixEntry['measurement']): AgentRow => ({
    agent, robots, decided, denied, passed, disagree: denied.length > 0 && passed.length > 0,
    entry: { ...base, edgeDoes, httpStatus, verdict, measurement, attributedVendors: vendorIds, notes },
  });

  if (decided.length === 0) {
    for (const n of NETWORKS) {
      if (!usable.includes(n)) notes.push(`${n}: not usable (browser control: ${input.controls[n].outcome})`);
      else notes.push(`${n}: undecided (${cells[n].outcome})`);
    }
    return row('inconclusive', 'could-not-measure');
  }
  if (denied.length === decided.length) return row(robots.says === 'blocked' ? 'blocked-consistent' : 'denied', 'measured');
  if (passed.length === decided.length) {
    // Reduced content only when every comparable network shows it (control text ≥ 500 characters).
    const comparable = passed.filter((n) => input.textLength(input.controls[n]) >= 500);
    const reduced = comparable.filter((n) => 2 * input.textLength(cells[n]) < input.textLength(input.controls[n]));
    if (comparable.length > 0 && reduced.length === comparable.length) {
      for (const n of reduced) notes.push(`${n}: ${input.textLength(cells[n])} characters of visible text against the browser's ${input.textLength(input.controls[n])}`);
      return row('reduced-content', 'measured');
    }
    return row('pass', 'measured');
  }
  notes.push(`the networks disagree: ${decided.map((n) => `${n} ${cells[n].outcome}`).join(', ')}`);
  return row('inconclusive', 'measured');
}

export function buildMatrix(input: MatrixInput): AgentRow[] {
  const usable = usableNetworks(input.controls);
  return input.roster.map((a) => buildRow(a, input, usable));
}
