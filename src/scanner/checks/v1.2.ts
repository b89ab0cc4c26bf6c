/**
 * The rubric-v1.2 registry: every rubric-v1.1 check at its weight (two judged anew: V12_REVISED,
 * in checks/revised/), then the checks for what the standards added in 2026
 * (shared/research/standards-2026.md), scored since rubric-v1.2 after a release as
 * rubric-v1.2-preview at the same weights. /methodology.md says why each weighs what it does.
 * Changing an id or a weight here publishes a new rubric version; rubric-v1.1 (./index.ts) stays
 * as it was, selectable and the rubric of every report archived under it.
 * The added checks treat an absent optional file as not applicable (inconclusive), as Lighthouse
 * does for llms.txt, so a site is never marked down for a draft it has no reason to adopt.
 */
import type { CheckDefinition } from './define.ts';
import { CHECKS } from './index.ts';
import { check as webBotAuth } from './trust.web-bot-auth.ts';
import { check as preferencesAgree } from './policy.preferences-agree.ts';
import { check as llmsTxtV2 } from './discovery.llms-txt-v2.ts';
import { check as ard } from './discovery.ard.ts';
import { check as a2aCardV1 } from './discovery.a2a-card-v1.ts';
import { check as mcpCardShape } from './discovery.mcp-card-shape.ts';
import { check as paymentOffers } from './access.payment-offers.ts';
import { perAgent as markdownPerAgent } from './content.markdown-negotiation.ts';
import { check as llmsTxtLinks } from './revised/discovery.llms-txt-links.ts';
import { check as agentsMd } from './discovery.agents-md.ts';
import { check as mcpCardCatalog } from './revised/discovery.mcp-card.ts';
import { check as trainingPreferenceGroups } from './revised/policy.training-preference.ts';

/** Added by rubric-v1.2 (previewed as rubric-v1.2-preview), in report order. */
export const V12_ADDED: readonly CheckDefinition[] = [
  paymentOffers, preferencesAgree, llmsTxtV2, ard, a2aCardV1, mcpCardShape, agentsMd, webBotAuth,
];

/**
 * rubric-v1.1 checks v1.2 judges anew, same id and weight (rubricChanges lists them as `revised`),
 * in rubric-v1.1's order. Released with the discovery of December 2026 (issue 37): the MCP card
 * read from the catalog (legacy paths at half credit) and training-preference groups.
 */
export const V12_REVISED: readonly CheckDefinition[] = [
  llmsTxtLinks, markdownPerAgent,
  // issue 37 item 1: discovery.mcp-card reads the MCP catalog and the AI Catalog, legacy paths at half credit.
  mcpCardCatalog,
  // issue 37 item 4: policy.training-preference reads __usage_ training-preference groups and names each draft.
  trainingPreferenceGroups,
].sort((a, b) => CHECKS.findIndex((c) => c.id === a.id) - CHECKS.findIndex((c) => c.id === b.id));

export const V12_CHECKS: readonly CheckDefinition[] = [...CHECKS.map((c) => V12_REVISED.find((r) => r.id === c.id) ?? c), ...V12_ADDED];
