/**
 * The page each agent gets (issue 36 item 2): for every agent whose edge outcome on a network is
 * `pass`, its page compared with the browser control's from the same network, by title, visible
 * text and canonical URL. `same`, `reduced` (under half the control's text, the reduced-content
 * rule of verdicts.md), `different` (naming what differs) or `not-compared`. Never a denial and
 * never part of the rubric-v1.1 score; the preview check content.same-for-agents reads it.
 * Read from the digests the probes made on arrival (page-digest.ts): no extra request.
 */
import { similarity } from './page-digest.ts';
import { SAME_TEXT, type SoftBlockChange } from './soft-block.ts';
import type { AgentRow } from './matrix.ts';
import { NETWORKS, type FetchedView, type MatrixContent, type NetworkName } from './types.ts';

export type ContentComparison = MatrixContent['networkA'];
export type ContentPart = 'title' | 'text' | 'canonical';

/**
 * Edge products that serve AI agents pages of their own and document a response header that
 * marks such a page. Only documented headers belong here.
 */
export const AGENT_SERVING: ReadonlyArray<{ header: string; product: string; source: string }> = [
  {
    header: 'x-edgeoptimize-request-id', product: 'Adobe LLM Optimizer (Optimize at Edge)',
    source: 'https://experienceleague.adobe.com/en/docs/llm-optimizer/using/resources/optimize-at-edge/cloudflare-byocdn',
  },
];

export interface NetworkComparison { result: ContentComparison; differs: ContentPart[]; agentServing: string[] }

/** Control text from which a shorter agent page is `reduced` (verdicts.md, reduced content). */
const REDUCED_MIN_CONTROL = 500;

export function compareCell(control: FetchedView, cell: FetchedView): NetworkComparison {
  const serving = AGENT_SERVING.filter((a) => cell.headers[a.header] !== undefined).map((a) => a.header);
  const a = control.digest;
  const b = cell.digest;
  if (control.outcome !== 'pass' || cell.outcome !== 'pass' || !a || !b) return { result: 'not-compared', differs: [], agentServing: [] };
  const differs: ContentPart[] = [];
  if (a.title !== b.title) differs.push('title');
  if (a.textSha !== b.textSha && similarity(a.sketch, b.sketch) < SAME_TEXT) differs.push('text');
  if (a.canonical !== b.canonical) differs.push('canonical');
  if (a.textChars >= REDUCED_MIN_CONTROL && 2 * b.textChars < a.textChars) return { result: 'reduced', differs, agentServing: serving };
  return { result: differs.length ? 'different' : 'same', differs, agentServing: serving };
}

/** `MatrixEntry.content` of one probeable agent, and the notes that say what differs. */
export function contentOf(controls: Record<NetworkName, FetchedView>, cells: Record<NetworkName, FetchedView>): { content: MatrixContent; notes: string[] } {
  const per = { networkA: compareCell(controls.networkA, cells.networkA), networkB: compareCell(controls.networkB, cells.networkB) };
  const content: MatrixContent = { networkA: per.networkA.result, networkB: per.networkB.result };
  const differs = [...new Set(NETWORKS.flatMap((n) => per[n].differs))].sort();
  if (differs.length) content.differs = differs;
  const serving = NETWORKS.flatMap((n) => per[n].agentServing.map((header) => ({ network: n, header, product: AGENT_SERVING.find((a) => a.header === header)!.product })));
  if (serving.length) content.agentServing = serving;
  const notes: string[] = [];
  for (const n of NETWORKS) {
    const c = per[n];
    const by = c.agentServing.length ? `; served with ${c.agentServing.map((h) => `${h} (${AGENT_SERVING.find((a) => a.header === h)!.product})`).join(', ')}` : '';
    if (c.result === 'different') notes.push(`${n}: the page differs from the browser's in its ${c.differs.join(', ')}${by}`);
    // A reduced page's lengths are in the verdict's own note (matrix.ts); only what else differs is added.
    else if (c.result === 'reduced' && (c.differs.length || by)) notes.push(`${n}: a reduced page${c.differs.length ? ` that also differs in its ${c.differs.join(', ')}` : ''}${by}`);
    else if (by) notes.push(`${n}: the same page as the browser's${by}`);
  }
  return { content, notes };
}

/**
 * Every probeable agent's row gains its `content`, the notes saying what differs, and a note per
 * soft block (applySoftBlocks ran before the matrix was built). Shared by the engine and the
 * recorded-evidence builders of the tests, so both judge pages alike.
 */
export function addContent(rows: readonly AgentRow[], controls: Record<NetworkName, FetchedView>, cells: Record<string, Record<NetworkName, FetchedView>>, softBlocks: readonly SoftBlockChange[]): void {
  for (const r of rows) {
    const agentCells = cells[r.agent.token];
    if (!agentCells) continue;
    for (const sb of softBlocks) if (sb.token === r.agent.token) r.entry.notes.push(`${sb.network}: ${sb.marker}`);
    const { content, notes } = contentOf(controls, agentCells);
    r.entry.content = content;
    r.entry.notes.push(...notes);
  }
}
