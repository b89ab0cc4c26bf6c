// The agent matrix as a compact grid: one small table per intent, one row per agent, one
// column per vantage (networkA, networkB and the user's own network when a CLI vantage is
// attached), the robots.txt verdict beside them and the row's verdict as a disclosure holding
// its notes. Two tables side by side on a laptop keep all 33 agents of roster-v1.0 on one
// screen; on a phone each row folds into two lines (styles.ts) so nothing scrolls sideways.
import type { EvidenceRecord, MatrixEntry, NetworkName } from '../scanner/types.ts';
import type { CliVantage } from '../scans/types.ts';
import { html, type SafeHtml } from './html.ts';
import { edgeWord, robotsWord, statusWord, VERDICT_MEANING, verdictWord } from './words.ts';
import { refusalLines, refusalTag } from './refusals.ts';

const INTENTS: ReadonlyArray<{ intent: string; title: string }> = [
  { intent: 'user-fetch', title: 'Fetching for a person' },
  { intent: 'search', title: 'Search and answers' },
  { intent: 'training', title: 'Model training' },
  { intent: 'archive', title: 'Web archives' },
];

const NETS: readonly NetworkName[] = ['networkA', 'networkB'];
const NET_LABEL: Record<NetworkName, string> = { networkA: 'Network A', networkB: 'Network B' };

export const evidenceAnchor = (id: string): string => `ev-${id}`;

const PAGE_WORD: Partial<Record<string, string>> = { reduced: 'reduced page', different: 'own page' };

/**
 * Under a network's outcome: "soft block" where a 200 page refused the agent (soft-block.ts left its
 * marker in the evidence), and "own page" or "reduced page" where the agent passed but got a page
 * unlike the browser's (MatrixEntry.content).
 */
function cellNote(m: MatrixEntry, n: NetworkName, evidence: ReadonlyMap<string, EvidenceRecord>): SafeHtml | '' {
  const soft = evidence.get(`${n}|grid:${m.ua}`)?.markers.some((x) => x.startsWith('soft block:'));
  const page = PAGE_WORD[m.content?.[n] ?? ''];
  if (!soft && !page) return '';
  return html` <span class="muted small">${soft ? '(soft block: a 200 page that refuses)' : `(${page})`}</span>`;
}

/** The page line of a row's panel: what each network served against the browser's page. */
function pageLine(m: MatrixEntry): SafeHtml | '' {
  const c = m.content;
  if (!c || (c.networkA === 'not-compared' && c.networkB === 'not-compared')) return '';
  const serving = c.agentServing?.length ? html`; served with ${[...new Set(c.agentServing.map((a) => `${a.header} (${a.product})`))].join(', ')}` : '';
  return html`<p>Page against the browser's: ${NETS.map((n, i) => html`${i ? ', ' : ''}${NET_LABEL[n]} ${c[n]}`)}${c.differs?.length ? html` (differs in its ${c.differs.join(', ')})` : ''}${serving}</p>`;
}

function panel(m: MatrixEntry, evidence: ReadonlyMap<string, EvidenceRecord>, cli: CliVantage | null): SafeHtml {
  const probes = NETS.map((n) => evidence.get(`${n}|grid:${m.ua}`)).filter((e): e is EvidenceRecord => e !== undefined);
  const own = cli?.observations.find((o) => o.key === `grid:${m.ua}`);
  return html`<div class="pop"><p><strong>${m.ua}</strong>: ${VERDICT_MEANING[m.verdict] ?? m.verdict} <span class="muted">(${m.measurement})</span></p>
${m.httpStatus ? html`<p>HTTP status: ${NETS.map((n, i) => html`${i ? ', ' : ''}${NET_LABEL[n]} ${m.httpStatus![n] || 'no answer'}`)}${own ? html`, your network ${own.status || 'no answer'}${own.error ? html` (${own.error})` : ''}` : ''}</p>` : ''}
${m.attributedVendors.length ? html`<p>Edge: ${m.attributedVendors.join(', ')}</p>` : ''}
${refusalLines(m)}
${pageLine(m)}
${m.notes.length ? html`<ul>${m.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
${probes.length ? html`<p>Evidence: ${probes.map((e, i) => html`${i ? ', ' : ''}<a href="#${evidenceAnchor(e.id)}">${NET_LABEL[e.network]}</a>`)}</p>` : ''}</div>`;
}

function row(m: MatrixEntry, evidence: ReadonlyMap<string, EvidenceRecord>, cli: CliVantage | null): SafeHtml {
  const lbl = (s: string) => html`<span class="lbl" aria-hidden="true">${s}</span>`;
  let cells: SafeHtml;
  if (!m.edgeDoes) {
    cells = html`<td class="span" colspan="${cli ? 3 : 2}">${lbl('Networks')}${edgeWord('unprobed', '(token only)')}</td>`;
  } else {
    const own = cli ? cli.observations.find((o) => o.key === `grid:${m.ua}`) : undefined;
    cells = html`<td class="n1">${lbl('Net A')}${edgeWord(m.edgeDoes.networkA)}${cellNote(m, 'networkA', evidence)}${refusalTag(m, 'networkA')}</td><td class="n2">${lbl('Net B')}${edgeWord(m.edgeDoes.networkB)}${cellNote(m, 'networkB', evidence)}${refusalTag(m, 'networkB')}</td>${cli ? html`<td class="n3">${lbl('Yours')}${own ? statusWord(own.status) : html`<span class="o none">not reported</span>`}</td>` : ''}`;
  }
  return html`<tr><th scope="row">${m.ua}</th><td class="r">${lbl('robots.txt')}${robotsWord(m.robotsSays)}</td>${cells}<td class="v"><details><summary>${verdictWord(m.verdict)}</summary>${panel(m, evidence, cli)}</details></td></tr>`;
}

export function matrixSection(matrix: readonly MatrixEntry[], cli: CliVantage | null, evidence: readonly EvidenceRecord[]): SafeHtml {
  const byCell = new Map(evidence.map((e) => [`${e.network}|${e.key}`, e]));
  const known = new Set(INTENTS.map((i) => i.intent));
  const groups = [...INTENTS, ...[...new Set(matrix.map((m) => m.intent))].filter((i) => !known.has(i)).map((i) => ({ intent: i, title: i }))];
  const tables = groups.map(({ intent, title }) => {
    const rows = matrix.filter((m) => m.intent === intent);
    if (rows.length === 0) return '';
    return html`<div class="group"><table class="agents${cli ? ' yours' : ''}">
<caption>${title} <span class="muted small">(${intent}, ${rows.length})</span></caption>
<colgroup><col class="c-agent"><col class="c-r"><col class="c-n"><col class="c-n">${cli ? html`<col class="c-y">` : ''}<col></colgroup>
<thead><tr><th scope="col">Agent</th><th scope="col">robots.txt</th><th scope="col">Net A</th><th scope="col">Net B</th>${cli ? html`<th scope="col">Yours</th>` : ''}<th scope="col">Verdict</th></tr></thead>
<tbody>${rows.map((m) => row(m, byCell, cli))}</tbody></table></div>`;
  });
  const control = cli?.observations.find((o) => o.key === 'control:browser');
  return html`<h2 id="agents">Agents</h2>
<p class="muted small">What robots.txt says to each agent, and what the site's edge did with requests identifying as that agent from two independent datacenter networks (Net A and Net B), each beside a browser control from the same network. Open a verdict for its notes and evidence.
${cli ? html` Your network (“Yours”) is self-reported by the command-line client (observed ${cli.observedAt}${control ? html`; browser control: HTTP ${control.status}` : ''}); it is evidence only and never changes a verdict or the score.` : ''}</p>
<div class="groups">${tables}</div>`;
}
