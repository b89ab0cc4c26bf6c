/**
 * robots.txt as each requester gets it. RFC 9309 §2.3: a crawler fetches robots.txt itself and
 * obeys the file it is served, so what robots.txt says to an agent is read from the copy that
 * agent's own request received, not from the browser's.
 *
 *   - Copies are told apart by their bytes (SHA-256) and status; each distinct copy is parsed once
 *     and every requester that received it shares the one parsed file.
 *   - An agent follows its own copy when that copy can be read (a text file, or a plain 4xx: no
 *     rules). When its request was turned away, failed, was not sent, or held an HTML page, its
 *     verdict uses the browser's copy: an edge that refuses our cloud-hosted request for robots.txt
 *     says nothing about the file the vendor's verified crawler would get. Token-only agents (no
 *     crawler of their own) use the browser's copy too.
 *   - "Differs" compares what a copy says (comments, blank lines and spacing aside), so a robots.txt
 *     that only stamps a date or a nonce into a comment does not send every agent round again.
 *     The agents whose copy says something else are asked again from the second network (round two),
 *     which tells a file that follows the requester from one that follows the network.
 */
import { findManagedBlock, type ManagedBlock } from './robots-managed.ts';
import { readRobots, robotsSays, type RobotsFile } from './robots.ts';
import type { RosterAgent } from './roster.ts';
import type { FetchedView, NetworkName } from './types.ts';

/** The requester name of the browser control in `copies[].requesters`. */
export const BROWSER = 'browser';

export interface RobotsCopy {
  sha256: string;
  bytes: number;
  status: number;
  state: 'present' | 'absent' | 'unknown';
  file: RobotsFile;
  /** What the copy says, comments and spacing aside ('' for a copy that cannot be read). */
  rules: string;
  managed: ManagedBlock | null;
  /** Who received it on the robots network, and on the second network (browser first, then roster order). */
  requesters: string[];
  second: string[];
}

export interface RobotsCopies {
  /** The network robots.txt is read from (networkA unless it has no route) and the other one. */
  network: NetworkName;
  secondNetwork: NetworkName;
  copies: RobotsCopy[];
  /** The browser's copy on each network (null when its request got no answer). */
  control: RobotsCopy | null;
  controlSecond: RobotsCopy | null;
  /** The readable copy a difference is measured against: the browser's, else the one most agents got. */
  reference: RobotsCopy | null;
  /** Each probed agent's answer on each network (agents asked again only on the second). */
  answers: Map<string, FetchedView>;
  answersSecond: Map<string, FetchedView>;
  own: Map<string, RobotsCopy>;
  ownSecond: Map<string, RobotsCopy>;
  /** The browser's copy as the verdicts read it (ScanEvidence.robots). */
  controlFile: RobotsFile;
  /** Probed agents whose readable copy says something else than the reference: round two asks them again on the second network. */
  confirm: string[];
  /** Where round two's answers join the copies. */
  book: CopyBook;
}

export interface RobotsViews {
  network: NetworkName;
  secondNetwork: NetworkName;
  browser: FetchedView;
  /** Each probed agent's request for robots.txt on the robots network, by token. */
  agents: Record<string, FetchedView>;
  browserSecond: FetchedView;
}

const readable = (c: RobotsCopy | null | undefined): c is RobotsCopy => !!c && c.state !== 'unknown';

/** One line per rule or record, field names lower-cased, comments and blank lines dropped. */
function rulesOf(file: RobotsFile): string {
  if (file.state === 'none') return '\u0000no rules';
  if (file.state !== 'parsed') return '';
  const out: string[] = [];
  for (const raw of file.lines) {
    const line = raw.replace(/#.*$/, '').trim().replace(/\s+/g, ' ');
    if (!line) continue;
    const colon = line.indexOf(':');
    out.push(colon > 0 ? `${line.slice(0, colon).trim().toLowerCase()}:${line.slice(colon + 1).trim()}` : line);
  }
  return out.join('\n');
}

const STATE = { parsed: 'present', none: 'absent', unknown: 'unknown' } as const;

/** Parses each distinct answer once (by bytes, status, content type and edge outcome) and groups requesters by copy. */
export class CopyBook {
  readonly copies: RobotsCopy[] = [];
  readonly #parsed = new Map<string, RobotsFile>();
  readonly #byKey = new Map<string, RobotsCopy>();

  constructor(control: { view: FetchedView; file: RobotsFile }) {
    // The browser's copy is the file the verdicts already read: the same object, never parsed twice.
    const r = control.view.record;
    if (control.view.ok) this.#parsed.set(`${r.bodySha256}|${r.status}|${control.view.contentType}|${control.view.outcome}`, control.file);
  }

  add(view: FetchedView, requester: string, second: boolean): RobotsCopy | null {
    if (!view.ok) return null;
    const r = view.record;
    const parseKey = `${r.bodySha256}|${r.status}|${view.contentType}|${view.outcome}`;
    let file = this.#parsed.get(parseKey);
    if (!file) {
      file = readRobots({ ok: true, status: view.status, contentType: view.contentType, body: view.body, edgeOutcome: view.outcome });
      this.#parsed.set(parseKey, file);
    }
    const key = `${r.bodySha256}|${r.status}|${file.state}`;
    let copy = this.#byKey.get(key);
    if (!copy) {
      copy = { sha256: r.bodySha256, bytes: r.bodyBytes, status: r.status, state: STATE[file.state], file, rules: rulesOf(file), managed: findManagedBlock(file), requesters: [], second: [] };
      this.#byKey.set(key, copy);
      this.copies.push(copy);
    }
    (second ? copy.second : copy.requesters).push(requester);
    return copy;
  }
}

/** Round one's robots.txt answers, grouped into copies; `confirm` names who round two asks again. */
export function collectRobotsCopies(views: RobotsViews, controlFile: RobotsFile, roster: readonly RosterAgent[]): RobotsCopies {
  const book = new CopyBook({ view: views.browser, file: controlFile });
  const control = book.add(views.browser, BROWSER, false);
  const answers = new Map<string, FetchedView>();
  const own = new Map<string, RobotsCopy>();
  for (const a of roster) {
    const v = views.agents[a.token];
    if (!v) continue;
    answers.set(a.token, v);
    const c = book.add(v, a.token, false);
    if (c) own.set(a.token, c);
  }
  const controlSecond = book.add(views.browserSecond, BROWSER, true);
  const reference = readable(control) ? control : mostCommon([...own.values()].filter(readable));
  const confirm = reference ? [...own].filter(([, c]) => readable(c) && c.rules !== reference.rules).map(([t]) => t) : [];
  return {
    network: views.network, secondNetwork: views.secondNetwork, copies: book.copies, control, controlSecond, reference,
    answers, answersSecond: new Map(), own, ownSecond: new Map(), controlFile, confirm, book,
  };
}

/** Round two's answers from the second network, for the agents in `confirm`. */
export function addSecondNetwork(copies: RobotsCopies, views: Record<string, FetchedView>): void {
  for (const token of copies.confirm) {
    const v = views[token];
    if (!v) continue;
    copies.answersSecond.set(token, v);
    const c = copies.book.add(v, token, true);
    if (c) copies.ownSecond.set(token, c);
  }
}

function mostCommon(list: readonly RobotsCopy[]): RobotsCopy | null {
  const count = new Map<string, number>();
  for (const c of list) count.set(c.rules, (count.get(c.rules) ?? 0) + 1);
  let best: RobotsCopy | null = null;
  for (const c of list) if (!best || count.get(c.rules)! > count.get(best.rules)!) best = c;
  return best;
}

/** Where a copy other than the browser's is kept among a scan's files (engine.ts, scans/compare.ts). */
export function copyPath(sha256: string): string {
  return `/robots.txt#${sha256.slice(0, 32)}`;
}

/** The file an agent's verdict comes from: its own readable copy, else the browser's. */
export function robotsFileFor(copies: RobotsCopies | undefined, controlFile: RobotsFile, token: string): RobotsFile {
  const c = copies?.own.get(token);
  return readable(c) ? c.file : controlFile;
}

/** Does the agent's own copy say something else than the browser's (so its verdict may differ)? */
export function ownsDifferentCopy(copies: RobotsCopies | undefined, token: string): boolean {
  const c = copies?.own.get(token);
  return readable(c) && c.file !== copies!.controlFile && (!readable(copies!.control) || c.rules !== copies!.control.rules);
}

/** The agents (roster order) whose robots.txt verdict for `/` differs from what the browser's copy says to them. */
export function verdictChanges(copies: RobotsCopies, roster: readonly RosterAgent[]): Array<{ agent: RosterAgent; own: ReturnType<typeof robotsSays>; browser: ReturnType<typeof robotsSays> }> {
  const out = [];
  for (const agent of roster) {
    if (!ownsDifferentCopy(copies, agent.token)) continue;
    const own = robotsSays(copies.own.get(agent.token)!.file, agent);
    const browser = robotsSays(copies.controlFile, agent);
    if (own.says !== browser.says) out.push({ agent, own, browser });
  }
  return out;
}
