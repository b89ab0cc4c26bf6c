/**
 * robots.txt per requester in the report's words: the `robotsTxt` field (copies, who got each,
 * the managed block), the reasons when copies differ or an edge's managed block decides some
 * agents, and the notes on each agent's matrix row. Pure over the copies gathered (robots-copies.ts).
 */
import type { components } from '../../generated/api-types.ts';
import { BROWSER, ownsDifferentCopy, robotsFileFor, verdictChanges, type RobotsCopies, type RobotsCopy } from './robots-copies.ts';
import { managedLines, managedSetting, ownerPart, type ManagedBlock } from './robots-managed.ts';
import { robotsSays, type RobotsAnswer, type RobotsFile, type RobotsSays } from './robots.ts';
import type { RosterAgent } from './roster.ts';

export type RobotsTxtReport = components['schemas']['RobotsTxtReport'];

const SAYS: Record<RobotsSays, string> = { allowed: 'allows /', blocked: 'disallows /', partial: 'allows / but disallows some paths', unknown: 'cannot be read' };

function list(items: readonly string[], max = 8): string {
  if (items.length <= 1) return items.join('');
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const short = (c: RobotsCopy) => `${c.sha256.slice(0, 8)}, ${c.bytes} bytes`;
const quoted = (a: RobotsAnswer) => (a.line ? ` (line ${a.line}: "${a.lineText}")` : '');

/** The copy a parsed file belongs to (each distinct copy is parsed once, so the file is its identity). */
function copyOf(copies: RobotsCopies, file: RobotsFile): RobotsCopy | undefined {
  return copies.copies.find((c) => c.file === file);
}

export interface ManagedFinding {
  block: ManagedBlock;
  /** The copy whose lines are shown: the browser's when it carries the block. */
  copy: RobotsCopy;
  /** Agents (roster order) whose verdict the managed lines decide. */
  agents: string[];
}

/** The managed block behind the verdicts, and the agents it decides; null when no copy an agent follows carries one. */
export function managedFinding(copies: RobotsCopies, roster: readonly RosterAgent[]): ManagedFinding | null {
  const owners = new Map<RobotsFile, RobotsFile>();
  let shown: RobotsCopy | undefined = copies.control?.managed ? copies.control : undefined;
  const agents: string[] = [];
  for (const agent of roster) {
    const file = robotsFileFor(copies, copies.controlFile, agent.token);
    const copy = copyOf(copies, file);
    if (!copy?.managed) continue;
    shown ??= copy;
    let owner = owners.get(file);
    if (!owner) owners.set(file, (owner = ownerPart(file, copy.managed)));
    if (robotsSays(file, agent).says !== robotsSays(owner, agent).says) agents.push(agent.token);
  }
  return shown?.managed ? { block: shown.managed, copy: shown, agents } : null;
}

/** The `robotsTxt` report field. */
export function robotsTxtReport(copies: RobotsCopies, roster: readonly RosterAgent[]): RobotsTxtReport {
  const out: RobotsTxtReport = {
    variesByRequester: variesByRequester(copies),
    network: copies.network,
    copies: copies.copies.map((c) => ({
      sha256: c.sha256, bytes: c.bytes, status: c.status, state: c.state, requesters: c.requesters,
      ...(c.second.length ? { secondNetwork: c.second } : {}),
    })),
  };
  const m = managedFinding(copies, roster);
  const setting = m ? managedSetting(m.block.vendor) : undefined;
  if (m && setting) {
    out.managed = {
      vendor: m.block.vendor, vendorName: m.block.vendorName, agents: m.agents,
      firstLine: m.block.firstLine, lastLine: m.block.lastLine, lines: managedLines(m.copy.file, m.block),
      setting: setting.setting, docUrl: setting.docUrl, fix: setting.fix(m.agents),
    };
  }
  return out;
}

/** Requesters on one network were served copies that say different things (comments and spacing aside). */
export function variesByRequester(copies: RobotsCopies): boolean {
  const say = (pick: (c: RobotsCopy) => readonly string[]) => new Set(copies.copies.filter((c) => c.state !== 'unknown' && pick(c).length > 0).map((c) => c.rules)).size > 1;
  return say((c) => c.requesters) || say((c) => c.second);
}

/** What the second network said about agents whose copy differed on the first. */
function secondClause(copies: RobotsCopies, tokens: readonly string[]): string {
  const same = tokens.filter((t) => copies.ownSecond.get(t)?.rules === copies.own.get(t)?.rules);
  const asBrowser = tokens.filter((t) => !same.includes(t) && copies.controlSecond && copies.ownSecond.get(t)?.rules === copies.controlSecond.rules);
  const unconfirmed = tokens.filter((t) => !same.includes(t) && !asBrowser.includes(t));
  const parts = [
    same.length ? `${copies.secondNetwork} served ${same.length === tokens.length ? (tokens.length === 1 ? 'it' : 'them') : list(same)} the same copy` : '',
    asBrowser.length ? `on ${copies.secondNetwork} ${list(asBrowser)} got the browser's copy, so the difference may follow the network rather than the requester` : '',
    unconfirmed.length ? `${copies.secondNetwork} could not confirm it for ${list(unconfirmed)}` : '',
  ].filter(Boolean);
  return parts.length ? ` ${parts.join('; ').replace(/^./, (c) => c.toUpperCase())}.` : '';
}

/** Reasons for the report: copies that differ (naming the agents whose verdict changed) and a managed block that decides agents. */
export function robotsTxtReasons(copies: RobotsCopies, roster: readonly RosterAgent[]): string[] {
  const out: string[] = [];
  const readableFirst = copies.copies.filter((c) => c.state !== 'unknown' && c.requesters.length > 0);
  const changes = verdictChanges(copies, roster);
  if (changes.length) {
    const groups = new Map<string, typeof changes>();
    for (const ch of changes) {
      const k = `${ch.own.says}|${ch.browser.says}|${copies.own.get(ch.agent.token)!.sha256}`;
      groups.set(k, [...(groups.get(k) ?? []), ch]);
    }
    for (const g of groups.values()) {
      const first = g[0]!;
      const tokens = g.map((x) => x.agent.token);
      const browser = copies.control && copies.control.state !== 'unknown' ? `the browser's copy ${SAYS[first.browser.says]}` : 'the browser got no readable copy';
      out.push(`robots.txt is not the same for every requester: ${list(tokens)} ${tokens.length === 1 ? 'was' : 'were'} served a copy that ${SAYS[first.own.says]}${quoted(first.own)}, while ${browser}. Each agent's robots.txt verdict follows the copy it was served (RFC 9309).${secondClause(copies, tokens)}`);
    }
  } else if (variesByRequester(copies)) {
    out.push(`robots.txt is not the same for every requester (${readableFirst.length} different copies), but no agent's verdict for / depends on which copy it got.`);
  } else if (readableFirst.length > 1) {
    out.push(`robots.txt came in ${readableFirst.length} copies that differ only in comments or spacing; no agent's verdict depends on it.`);
  }
  if (copies.control && copies.controlSecond && copies.control.state !== 'unknown' && copies.controlSecond.state !== 'unknown' && copies.control.rules !== copies.controlSecond.rules) {
    out.push(`robots.txt as the browser gets it differs between the two networks (${copies.network}: ${short(copies.control)}; ${copies.secondNetwork}: ${short(copies.controlSecond)}); the verdicts read ${copies.network}'s copies.`);
  }
  const m = managedFinding(copies, roster);
  if (m) {
    const where = `lines ${m.block.firstLine}–${m.block.lastLine}`;
    out.push(m.agents.length
      ? `robots.txt carries ${m.block.vendorName}'s managed block (${where}), which ${m.block.vendorName} adds above the site's own rules: it decides what robots.txt says to ${list(m.agents)}; the site's own lines alone would say otherwise.`
      : `robots.txt carries ${m.block.vendorName}'s managed block (${where}); no agent's verdict depends on it.`);
  }
  return out;
}

/** Notes for one agent's matrix row about the copy its verdict comes from (none when it got the browser's). */
export function robotsCopyNotes(copies: RobotsCopies, agent: RosterAgent): string[] {
  const t = agent.token;
  const answer = copies.answers.get(t);
  if (!answer) return [];
  const own = copies.own.get(t);
  const control = copies.control;
  // An answer the browser got too says nothing about this agent: the reasons already say robots.txt could not be read.
  if (!answer.ok) return control?.state === 'present' || control?.state === 'absent' ? [`robots.txt was not received as ${t} (${answer.record.errorCode ?? 'no answer'}), so its verdict uses the browser's copy`] : [];
  if (!own || own.state === 'unknown') return own && own !== control ? [`${own.file.reason} when asked for as ${t}, so its verdict uses the browser's copy`] : [];
  if (!ownsDifferentCopy(copies, t)) return [];
  const against = control && control.state !== 'unknown' ? `the browser's copy (${short(control)})` : 'the browser, which got no readable copy';
  const second = copies.ownSecond.get(t);
  const confirmed = second ? (second.rules === own.rules ? `; ${copies.secondNetwork} served ${t} the same copy` : `; on ${copies.secondNetwork} ${t} got a copy that says something else (${short(second)})`) : '';
  const notes = [`robots.txt as served to ${t} (${short(own)}) differs from ${against}; its verdict follows its own copy (RFC 9309)${confirmed}`];
  if (own.managed && control && own.managed !== control.managed) notes.push(`${t}'s copy carries ${own.managed.vendorName}'s managed block (lines ${own.managed.firstLine}–${own.managed.lastLine})`);
  return notes;
}

export { BROWSER };
