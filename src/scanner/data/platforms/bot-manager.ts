// The four access fixes of a bot-management product, in its own words: the setting that holds the
// per-bot or per-category action, and what to set it to. Used by the enterprise edges whose fixes
// differ only in those words (Akamai, Fastly, AWS WAF, Azure Front Door, Imperva).
import { listed, type FixContext, type FixEntry, type PlatformEntry } from './types.ts';

export interface BotManagerWords {
  name: string;
  /** Where the per-bot action lives. */
  setting: string;
  docUrl: string;
  /** How to let the agents through, given their tokens. */
  allow(agents: readonly string[]): string;
  deny(agents: readonly string[]): string;
  rateLimit: { setting: string; text(agents: readonly string[]): string; docUrl: string };
}

export function botManagerFixes(w: BotManagerWords): Pick<PlatformEntry, 'fixes' | 'edgeRule'> {
  const allow = ({ agents }: FixContext): FixEntry => ({ setting: w.setting, text: `${w.name} turns away ${listed(agents)}. ${w.allow(agents)}`, docUrl: w.docUrl });
  return {
    fixes: {
      'access.user-agents': allow,
      'access.search-agents': allow,
      'access.training-consistency': (ctx) => ({ ...allow(ctx), text: `${allow(ctx).text} Or keep the denial and disallow them in robots.txt, so both say the same.` }),
      'access.no-agent-rate-limit': ({ agents }) => ({ setting: w.rateLimit.setting, text: w.rateLimit.text(agents), docUrl: w.rateLimit.docUrl }),
    },
    edgeRule: { docUrl: w.docUrl, allow: w.allow, deny: w.deny },
  };
}
