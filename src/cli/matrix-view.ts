/**
 * The per-agent matrix as a text table, with the caller's network as a column
 * beside networkA and networkB, and plain sentences where the caller's network
 * saw something different from the datacenter networks.
 */
import type { ScanReport } from './api.ts';
import { padEnd, type Style } from './style.ts';

type Entry = ScanReport['matrix'][number];
type Outcomes = Record<string, string>;

export interface MatrixColumn { label: string; cell(entry: Entry): string | null }

const DENIALS = new Set(['challenge', 'block', 'rate-limited', 'auth']);
const DENIAL_WORDS: Record<string, string> = { challenge: 'challenged', block: 'blocked', 'rate-limited': 'rate-limited', auth: 'asked to log in' };

/** Columns for a hosted report: the two datacenter networks, then the caller's own when it was probed. */
export function hostedColumns(user: Outcomes | null): MatrixColumn[] {
  const cols: MatrixColumn[] = [
    { label: 'networkA', cell: (e) => e.edgeDoes?.networkA ?? null },
    { label: 'networkB', cell: (e) => e.edgeDoes?.networkB ?? null },
  ];
  if (user) cols.push({ label: 'your network', cell: (e) => (e.edgeDoes ? user[`grid:${e.ua}`] ?? 'unprobed' : null) });
  return cols;
}

/** A local scan has one network: this machine (the engine's networkA). */
export function localColumns(): MatrixColumn[] {
  return [{ label: 'this machine', cell: (e) => e.edgeDoes?.networkA ?? null }];
}

function colourOutcome(o: string, s: Style): string {
  if (o === 'pass') return s.green(o);
  if (DENIALS.has(o)) return s.red(o);
  return s.dim(o);
}

function colourVerdict(v: string, s: Style): string {
  if (v === 'pass') return s.green(v);
  if (v === 'denied' || v === 'blocked-consistent') return s.red(v);
  if (v === 'reduced-content') return s.yellow(v);
  return s.dim(v);
}

export function renderMatrix(matrix: Entry[], columns: MatrixColumn[], s: Style): string[] {
  const header = ['agent', 'intent', 'robots.txt', ...columns.map((c) => c.label), 'verdict'];
  const rows = matrix.map((e) => [
    e.ua, e.intent, e.robotsSays,
    ...columns.map((c) => { const v = c.cell(e); return v === null ? s.dim('—') : colourOutcome(v, s); }),
    colourVerdict(e.verdict, s),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.replace(/\x1b\[[0-9;]*m/g, '').length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : padEnd(c, widths[i]!))).join('  ')}`.trimEnd();
  return [line(header.map((h) => s.bold(h))), ...rows.map(line)];
}

/** A readable list: up to six names, then a count. */
function names(agents: string[]): string {
  return agents.length <= 6 ? agents.join(', ') : `${agents.slice(0, 6).join(', ')} and ${agents.length - 6} more`;
}

function words(outcomes: string[]): string {
  const ws = [...new Set(outcomes.filter((o) => DENIALS.has(o)).map((o) => DENIAL_WORDS[o]!))];
  return ws.length <= 1 ? (ws[0] ?? 'denied') : `${ws.slice(0, -1).join(', ')} or ${ws.at(-1)}`;
}

/** "cloud networks" when both say so, else the one network's name. */
function networksPhrase(nets: string[], verbPlural: string, verbSingular: string): string {
  return nets.length === 2 ? `cloud networks ${verbPlural}` : `${nets[0]} ${verbSingular}`;
}

/**
 * Plain sentences for each way the caller's network differs from the cloud
 * networks, grouping agents that differ the same way. As for the hosted
 * verdicts, a network whose browser control did not get the page says nothing
 * about agents, so a failed control on the caller's side stops the comparison.
 */
export function describeDifferences(matrix: Entry[], user: Outcomes, controlError?: string, controlMessage?: string): string[] {
  const control = user['control:browser'];
  if (controlError === 'PROXY') {
    // The caller's own proxy, not the site: the commonest cause is a corporate proxy that wants credentials.
    if (controlMessage && /\(407\)/.test(controlMessage)) {
      return ['Your proxy asked for credentials (407) and opened no tunnel to the site, so your network was not measured. Give them in the proxy URL: HTTPS_PROXY=http://user:password@host:port (percent-encode @, : and / in them).'];
    }
    return [`Your proxy opened no tunnel to the site${controlMessage ? ` (${controlMessage})` : ''}, so your network was not measured.`];
  }
  if (controlError === 'GUARD_REFUSED') {
    // Split-horizon DNS (an office or VPN resolver answering with an internal address): the guard never probes those.
    return ['Your network resolves this site to a private or reserved address, which the CLI never probes, so your network\'s results say nothing about the public site.'];
  }
  if (control && control !== 'pass') {
    const how = DENIALS.has(control) ? `was ${DENIAL_WORDS[control]}` : `did not get the page (${control})`;
    return [`The browser-like control request from your network ${how}, so your network's agent results cannot be compared.`];
  }
  const groups = new Map<string, string[]>();
  const add = (sentence: string, ua: string) => groups.set(sentence, [...(groups.get(sentence) ?? []), ua]);
  for (const e of matrix) {
    if (!e.edgeDoes) continue;
    const mine = user[`grid:${e.ua}`];
    if (!mine) continue;
    const cloud = { networkA: e.edgeDoes.networkA, networkB: e.edgeDoes.networkB };
    const deniedOn = Object.entries(cloud).filter(([, o]) => DENIALS.has(o));
    const passedOn = Object.entries(cloud).filter(([, o]) => o === 'pass').map(([n]) => n);
    if (mine === 'pass' && deniedOn.length) {
      const where = networksPhrase(deniedOn.map(([n]) => n), `are ${words(deniedOn.map(([, o]) => o))}`, `is ${words(deniedOn.map(([, o]) => o))}`);
      add(`your network passes where ${where}. The edge treats these agents' requests from cloud servers worse than from your connection.`, e.ua);
    } else if (DENIALS.has(mine) && passedOn.length) {
      add(`your network is ${words([mine])} where ${networksPhrase(passedOn, 'pass', 'passes')}. Something on your side (a corporate proxy, a VPN, your address's reputation) may be in the way.`, e.ua);
    }
  }
  const probed = matrix.filter((e) => e.edgeDoes).length;
  const who = (agents: string[]) => (agents.length === probed && probed > 1 ? `All ${probed} agents` : names(agents));
  const out = [...groups].map(([sentence, agents]) => `${who(agents)}: ${sentence}`);
  return out.length ? out : ['Your network saw what the cloud networks saw.'];
}
