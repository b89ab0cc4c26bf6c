// Akamai, Fastly, AWS CloudFront/WAF, Azure Front Door and Imperva: their bot-management settings.
// Docs: techdocs.akamai.com/terraform/docs/set-up-botman (Define bot responses);
// fastly.com/documentation/guides/security/bot-management/about-bot-management/;
// docs.aws.amazon.com/waf/latest/developerguide/waf-bot-control-example-allow-verified-bots.html and
// aws-managed-rule-groups-bot.html; learn.microsoft.com/azure/web-application-firewall/afds/
// waf-front-door-policy-configure-bot-protection; docs.imperva.com/bundle/cloud-application-security/
// page/settings/security-settings.htm (Bot Access Control).
import { botManagerFixes } from './bot-manager.ts';
import { listed, type PlatformEntry } from './types.ts';

const AKAMAI = 'https://techdocs.akamai.com/terraform/docs/set-up-botman';
export const akamai: PlatformEntry = {
  id: 'akamai', name: 'Akamai', role: 'edge', vendors: ['akamai'],
  ...botManagerFixes({
    name: 'Akamai Bot Manager', setting: 'Bot Manager → Akamai-categorized bots (bot category actions) in the security policy', docUrl: AKAMAI,
    allow: (t) => `In the security policy's Bot Manager settings set the action of the Akamai bot category that holds ${listed(t)} (AI crawlers, AI assistants) to Monitor or Allow, or add them to the Allowed bots of a custom bot category.`,
    deny: (t) => `In Bot Manager set the action of the category that holds ${listed(t)} to Deny.`,
    rateLimit: { setting: 'App & API Protector → Rate controls', text: (t) => `A rate control answers ${listed(t)} with 429 on one request; key it on request rate per client, not on the user-agent.`, docUrl: AKAMAI },
  }),
};

const FASTLY = 'https://www.fastly.com/documentation/guides/security/bot-management/about-bot-management/';
export const fastly: PlatformEntry = {
  id: 'fastly', name: 'Fastly', role: 'edge', vendors: ['fastly'],
  ...botManagerFixes({
    name: 'Fastly (Bot Management / Next-Gen WAF)', setting: 'Security → Bot Management and Next-Gen WAF rules', docUrl: FASTLY,
    allow: (t) => `Allow ${listed(t)} in Bot Management (verified bots) and remove them from any Next-Gen WAF rule that blocks them (its default block answers 406).`,
    deny: (t) => `Add a Next-Gen WAF rule that blocks requests whose user-agent contains ${listed(t)}.`,
    rateLimit: { setting: 'Next-Gen WAF → rate limit rules', text: (t) => `A rate limit rule answers ${listed(t)} with 429 on one request; raise its threshold or exclude them.`, docUrl: FASTLY },
  }),
};

const AWS = 'https://docs.aws.amazon.com/waf/latest/developerguide/waf-bot-control-example-allow-verified-bots.html';
export const aws: PlatformEntry = {
  id: 'aws', name: 'AWS CloudFront / WAF', role: 'edge', vendors: ['aws-waf'],
  ...botManagerFixes({
    name: 'AWS WAF', setting: 'Web ACL → AWS WAF Bot Control rule group (AWSManagedRulesBotControlRuleSet) and a label-match Allow rule', docUrl: AWS,
    allow: (t) => `In the web ACL, override the Bot Control rule that matches ${listed(t)} to Count, then add a rule after the rule group that allows the verified-bot label (awswaf:managed:aws:bot-control:bot:verified).`,
    deny: (t) => `In the web ACL add a rule after Bot Control that blocks ${listed(t)} (a label match on their bot:name labels, or a user-agent string match).`,
    rateLimit: { setting: 'Web ACL → rate-based rule', text: (t) => `A rate-based rule answers ${listed(t)} on one request; aggregate on IP with a realistic limit, or scope it down to exclude them.`, docUrl: 'https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-bot.html' },
  }),
};

const AZURE = 'https://learn.microsoft.com/azure/web-application-firewall/afds/waf-front-door-policy-configure-bot-protection';
export const azureFrontDoor: PlatformEntry = {
  id: 'azure-front-door', name: 'Azure Front Door', role: 'edge', vendors: ['azure-front-door'],
  ...botManagerFixes({
    name: 'Azure Front Door WAF', setting: 'WAF policy → Managed rules (Microsoft_BotManagerRuleSet) and Custom rules', docUrl: AZURE,
    allow: (t) => `In the WAF policy add a custom rule (custom rules run first) matching RequestHeader User-Agent contains ${listed(t)} with the Allow action, or set the bot-manager rule that matches them to Log.`,
    deny: (t) => `In the WAF policy add a custom rule matching RequestHeader User-Agent contains ${listed(t)} with the Block action.`,
    rateLimit: { setting: 'WAF policy → Custom rules (rate limit)', text: (t) => `A rate-limit rule answers ${listed(t)} with 429 on one request; raise its threshold or exclude them.`, docUrl: AZURE },
  }),
};

const IMPERVA = 'https://docs.imperva.com/bundle/cloud-application-security/page/settings/security-settings.htm';
export const imperva: PlatformEntry = {
  id: 'imperva', name: 'Imperva', role: 'edge', vendors: ['imperva'],
  ...botManagerFixes({
    name: 'Imperva', setting: 'Websites → Settings → Security → Bot Access Control', docUrl: IMPERVA,
    allow: (t) => `In Bot Access Control add ${listed(t)} to the Good Bots list (or remove them from Bad Bots), and make sure "Block bad bots" does not challenge unidentified clients carrying these user-agents.`,
    deny: (t) => `In Bot Access Control add ${listed(t)} to the Bad Bots list.`,
    rateLimit: { setting: 'Websites → Settings → Security (rate rules)', text: (t) => `A rate rule answers ${listed(t)} on one request; raise its threshold or exclude them.`, docUrl: IMPERVA },
  }),
};
