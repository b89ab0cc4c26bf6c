/**
 * The rubric-v1.1 registry: one ordered list. Scoring, the catalog (GET /api/checks), the report
 * and the snapshot test all derive from it. Frozen: rubric-v1.1 stays selectable and is the rubric
 * of every report archived under it, and rubric-v1.2 (./v1.2.ts) builds on it, so nothing here
 * changes an outcome; a changed judgement is a revised check of a newer rubric (checks/revised/).
 */
import type { CheckDefinition } from './define.ts';
import { check as userAgents } from './access.user-agents.ts';
import { check as searchAgents } from './access.search-agents.ts';
import { check as trainingConsistency } from './access.training-consistency.ts';
import { check as contentParity } from './access.content-parity.ts';
import { check as noAgentRateLimit } from './access.no-agent-rate-limit.ts';
import { check as robotsReachable } from './policy.robots-reachable.ts';
import { check as robotsValid } from './policy.robots-valid.ts';
import { check as searchUserAllowed } from './policy.search-user-allowed.ts';
import { check as aiRulesExplicit } from './policy.ai-rules-explicit.ts';
import { check as trainingPreference } from './policy.training-preference.ts';
import { check as usageSignalsValid } from './policy.usage-signals-valid.ts';
import { check as notNoindexed } from './policy.not-noindexed.ts';
import { check as sitemap } from './policy.sitemap.ts';
import { check as llmsTxt } from './discovery.llms-txt.ts';
import { check as llmsTxtSize } from './discovery.llms-txt-size.ts';
import { check as llmsTxtLinks } from './discovery.llms-txt-links.ts';
import { check as linkHeaders } from './discovery.link-headers.ts';
import { check as apiCatalog } from './discovery.api-catalog.ts';
import { check as openapi } from './discovery.openapi.ts';
import { check as mcpCard } from './discovery.mcp-card.ts';
import { check as oauthMetadata } from './discovery.oauth-metadata.ts';
import { check as agentCard } from './discovery.agent-card.ts';
import { check as serverRendered } from './content.server-rendered.ts';
import { check as markdownNegotiation } from './content.markdown-negotiation.ts';
import { check as markdownVariants } from './content.markdown-variants.ts';
import { check as structuredData } from './content.structured-data.ts';
import { check as pageSize } from './content.page-size.ts';
import { check as canonicalMeta } from './content.canonical-meta.ts';
import { check as machineLicense } from './trust.machine-license.ts';
import { check as securityTxt } from './trust.security-txt.ts';

export type { CheckDefinition };

export const CHECKS: readonly CheckDefinition[] = [
  userAgents, searchAgents, trainingConsistency, contentParity, noAgentRateLimit,
  robotsReachable, robotsValid, searchUserAllowed, aiRulesExplicit, trainingPreference, usageSignalsValid, notNoindexed, sitemap,
  llmsTxt, llmsTxtSize, llmsTxtLinks, linkHeaders, apiCatalog, openapi, mcpCard, oauthMetadata, agentCard,
  serverRendered, markdownNegotiation, markdownVariants, structuredData, pageSize, canonicalMeta,
  machineLicense, securityTxt,
];
