// What changed between two archived reports of one domain: a pure function of the two reports,
// the networks each could use and the robots.txt each read. The diff page, the API, the CLI and
// the watches' alerts all read this one result; the same inputs give the same diff.
import { vendorName } from '../scanner/fingerprints.ts';
import { NETWORKS, type CheckResult, type MatrixEntry, type NetworkName } from '../scanner/types.ts';
import type { components } from '../../generated/api-types.ts';
import { requesterRobotsChanges, robotsTxtChange, type KeptFile, type OwnCopy } from './robots-diff.ts';
import { summarise } from './words.ts';

export type ReportDiff = components['schemas']['ReportDiff'];
export type CellChange = components['schemas']['CellChange'];
export type CheckChange = components['schemas']['CheckChange'];
export type { KeptFile };

/** The parts of an archived report a comparison reads. */
export interface ComparedReport {
  scanId: string;
  domain: string;
  scannedAt: string;
  headline: ReportDiff['headline']['before'];
  score: { value: number | null; rubricVersion: string };
  confidence: ReportDiff['confidence']['before'];
  checks: readonly CheckResult[];
  matrix: readonly MatrixEntry[];
}

/** One side of a comparison: the report, where it lives, and what the scan saw around it. */
export interface DiffSideInput {
  report: ComparedReport;
  reportUrl: string;
  /** Networks whose browser control passed in this scan (the evidence's control:browser records). */
  usable: readonly NetworkName[];
  /** robots.txt as this scan read it; null when the scan kept no file (archived before files were kept). */
  robotsTxt: KeptFile | null;
  /** Agents served a readable copy of their own (report.robotsTxt), with that copy as kept; absent or empty: every agent got the browser's copy. */
  ownRobotsTxt?: ReadonlyMap<string, OwnCopy>;
}

function side(s: DiffSideInput): ReportDiff['from'] {
  const r = s.report;
  return { scanId: r.scanId, scannedAt: r.scannedAt, reportUrl: s.reportUrl, headline: r.headline, score: r.score.value, confidence: r.confidence, rubricVersion: r.score.rubricVersion };
}

const stateOf = (c: CheckResult | undefined) => (c ? { status: c.status, ...(c.credit !== undefined ? { credit: c.credit } : {}) } : null);

/**
 * Checks whose status or credit changed. Under two rubrics only the checks both share are compared
 * (an id keeps its meaning across rubrics; a check one rubric lacks says nothing about the site).
 */
function checkChanges(before: readonly CheckResult[], after: readonly CheckResult[], sameRubric: boolean): CheckChange[] {
  const a = new Map(before.map((c) => [c.id, c]));
  const b = new Map(after.map((c) => [c.id, c]));
  // The later report's order first (its rubric's registry order), then checks it no longer has.
  const ids = sameRubric ? [...b.keys(), ...[...a.keys()].filter((id) => !b.has(id))] : [...b.keys()].filter((id) => a.has(id));
  const out: CheckChange[] = [];
  for (const id of ids) {
    const x = a.get(id);
    const y = b.get(id);
    if (x && y && x.status === y.status && (x.credit ?? null) === (y.credit ?? null)) continue;
    out.push({ id, category: (y ?? x)!.category, before: stateOf(x), after: stateOf(y) });
  }
  return out;
}

function cellChanges(before: DiffSideInput, after: DiffSideInput): CellChange[] {
  const earlier = new Map(before.report.matrix.map((m) => [m.ua, m]));
  const out: CellChange[] = [];
  // Agents of one roster only (the roster changed between the scans) have nothing to compare.
  for (const y of after.report.matrix) {
    const x = earlier.get(y.ua);
    if (!x) continue;
    const robotsSays = { before: x.robotsSays, after: y.robotsSays };
    const verdict = { before: x.verdict, after: y.verdict };
    const robotsChanged = x.robotsSays !== y.robotsSays;
    if (!x.edgeDoes || !y.edgeDoes) {
      if (robotsChanged || (x.edgeDoes === null) !== (y.edgeDoes === null)) {
        out.push({ agent: y.ua, intent: y.intent, network: null, robotsSays, edge: { before: null, after: null }, verdict, usable: { before: false, after: false } });
      }
      continue;
    }
    for (const n of NETWORKS) {
      if (!robotsChanged && x.edgeDoes[n] === y.edgeDoes[n]) continue;
      out.push({
        agent: y.ua, intent: y.intent, network: n, robotsSays, edge: { before: x.edgeDoes[n], after: y.edgeDoes[n] }, verdict,
        usable: { before: before.usable.includes(n), after: after.usable.includes(n) },
      });
    }
  }
  return out;
}

const vendorsOf = (matrix: readonly MatrixEntry[]) => new Set(matrix.flatMap((m) => m.attributedVendors));

function vendorChanges(before: readonly MatrixEntry[], after: readonly MatrixEntry[]): ReportDiff['vendors'] {
  const a = vendorsOf(before);
  const b = vendorsOf(after);
  const ref = (id: string) => ({ id, name: vendorName(id) });
  return { appeared: [...b].filter((v) => !a.has(v)).sort().map(ref), left: [...a].filter((v) => !b.has(v)).sort().map(ref) };
}

/** Thrown when the two reports cannot be compared (the handler's 400). */
export class NotComparable extends Error {
  override name = 'NotComparable';
}

/** The comparison of `before` with `after`; `diffUrl` is where it is served. */
export function diffReports(before: DiffSideInput, after: DiffSideInput, diffUrl: string): ReportDiff {
  const a = before.report;
  const b = after.report;
  if (a.domain !== b.domain) throw new NotComparable(`The two reports are of different domains (${a.domain} and ${b.domain}).`);
  const sameRubric = a.score.rubricVersion === b.score.rubricVersion;
  const delta = sameRubric && a.score.value !== null && b.score.value !== null ? b.score.value - a.score.value : null;
  const diff: ReportDiff = {
    domain: b.domain,
    from: side(before),
    to: side(after),
    diffUrl,
    sameRubric,
    summary: [],
    headline: { before: a.headline, after: b.headline, changed: a.headline !== b.headline },
    score: { before: a.score.value, after: b.score.value, delta },
    confidence: { before: a.confidence, after: b.confidence, changed: a.confidence !== b.confidence },
    checks: checkChanges(a.checks, b.checks, sameRubric),
    cells: cellChanges(before, after),
    robotsTxt: robotsTxtChange(before.robotsTxt, after.robotsTxt, a.scannedAt, b.scannedAt),
    vendors: vendorChanges(a.matrix, b.matrix),
  };
  const agents = b.matrix.filter((m) => a.matrix.some((x) => x.ua === m.ua)).map((m) => m.ua);
  const requesters = requesterRobotsChanges({ browser: before.robotsTxt, own: before.ownRobotsTxt ?? new Map() }, { browser: after.robotsTxt, own: after.ownRobotsTxt ?? new Map() }, agents, a.scannedAt, b.scannedAt);
  if (requesters.length) diff.robotsTxt.requesters = requesters;
  diff.summary = summarise(diff);
  return diff;
}
