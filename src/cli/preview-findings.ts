/**
 * What the next rubric's revised checks found that the current one does not show: a check
 * rubric-v1.2-preview judges anew (discovery.llms-txt-links follows more links and names the
 * dead ones) whose preview result is not a full pass. Printed under "Next rubric" by the
 * terminal and Markdown renderers; it never changes the score or a gate.
 */
import type { ScanReport } from './api.ts';

export function revisedFindings(rep: ScanReport): Array<{ id: string; detail: string }> {
  if (!rep.preview) return [];
  const revised = new Set(rep.preview.changes.filter((c) => c.change === 'revised').map((c) => c.checkId));
  return rep.preview.checks
    .filter((c) => revised.has(c.id) && (c.status === 'fail' || (c.status === 'pass' && c.credit !== undefined && c.credit < 1)))
    .map((c) => ({ id: c.id, detail: c.detail ?? c.status }));
}
