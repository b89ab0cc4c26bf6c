/**
 * The rubric-v1.3-preview registry: every rubric-v1.2 check at its weight, then V13_ADDED, the
 * checks for what issue 37 found the standards added in late 2026
 * (shared/research/discovery-2026-12.md). Reports score it beside the current rubric under
 * `preview`; it never moves `score`.
 * New checks treat an absent optional file as not applicable (inconclusive), as Lighthouse does
 * for llms.txt, so a site is never marked down for a draft it has no reason to adopt.
 */
import type { CheckDefinition } from './define.ts';
import { V12_CHECKS } from './v1.2.ts';
import { check as refusalReadable } from './access.refusal-readable.ts';
import { check as dnsRecords } from './discovery.dns-records.ts';
import { check as sameForAgents } from './content.same-for-agents.ts';

/**
 * Added by rubric-v1.3-preview, in report order: the checks of issues 36 and 37 that are new,
 * each with its `// issue N item M`.
 */
export const V13_ADDED: readonly CheckDefinition[] = [
  // issue 36 item 6
  refusalReadable,
  // issue 37 item 2
  dnsRecords,
  // issue 36 item 2
  sameForAgents,
];

/**
 * rubric-v1.2 checks the preview judges anew (same id and weight; rubricChanges lists them as
 * `revised`), in rubric-v1.2's order. A changed judgement of a scored check goes here, never
 * into the scored check's own file.
 */
export const PREVIEW_REVISED: readonly CheckDefinition[] = [];

export const PREVIEW_CHECKS: readonly CheckDefinition[] = [...V12_CHECKS.map((c) => PREVIEW_REVISED.find((r) => r.id === c.id) ?? c), ...V13_ADDED];
