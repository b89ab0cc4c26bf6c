// Akamai, Fastly, AWS CloudFront/WAF, Azure Front Door and Imperva: their bot-management settings.
// Docs: techdocs.akamai.com/terraform/docs/set-up-botman (Define bot responses);
// fastly.com/documentation/guides/security/bot-management/about-bot-management/;
// docs.aws.amazon.com/waf/latest/developerguide/waf-bot-control-example-allow-verified-bots.html and
// aws-managed-rule-groups-bot.html; learn.microsoft.com/azure/web-application-firewall/afds/
// waf-front-door-policy-configure-bot-protection; docs.imperva.com/bundle/cloud-application-security/
// page/settings/security-settings.htm (Bot Access Control). The home page's Link header: Akamai's
// Modify Outgoing Response Header, Fastly VCL (resp.http in vcl_deliver), CloudFront response headers
// policies, Azure Front Door rule set actions (Imperva: none confirmed, so none offered).
import { botManagerFixes } from './bot-manager.ts';
import { HOME_LINK, staticFileFixes } from './static-files.ts';
import { listed, type FixEntry, type PlatformEntry } from './types.ts';

/** A bot-management edge plus the response-header setting that adds the home page's Link header. */
function withLink(base: Pick<PlatformEntry, 'fixes' | 'edgeRule'>, link: FixEntry): Pick<PlatformEntry, 'fixes' | 'edgeRule'> {
  return { ...base, fixes: { ...base.fixes, 'discovery.link-headers': () => link } };
}
function withExtra(base: Pick<PlatformEntry, 'fixes' | 'edgeRule'>, extra: PlatformEntry['fixes']): Pick<PlatformEntry, 'fixes' | 'edgeRule'> {
  return { ...base, fixes: { ...base.fixes, ...extra } };
}
const LINK_TEXT = 'Add a Link header to the home page\'s response that points agents at the machine-readable resources (the sitemap, llms.txt).';

const AKAMAI = 'https://techdocs.akamai.com/terraform/docs/set-up-botman';
export const akamai: PlatformEntry = {
  id: 'akamai', name: 'Akamai', role: 'edge', vendors: ['akamai'],
  ...withLink(botManagerFixes({
    name: 'Akamai Bot Manager', setting: 'Bot Manager → Akamai-categorized bots (bot category actions) in the security policy', docUrl: AKAMAI,
    allow: (t) => `In the security policy's Bot Manager settings set the action of the Akamai bot category that holds ${listed(t)} (AI crawlers, AI assistants) to Monitor or Allow, or add them to the Allowed bots of a custom bot category.`,
    deny: (t) => `In Bot Manager set the action of the category that holds ${listed(t)} to Deny.`,
    rateLimit: { setting: 'App & API Protector → Rate controls', text: (t) => `A rate control answers ${listed(t)} with 429 on one request; key it on request rate per client, not on the user-agent.`, docUrl: AKAMAI },
  }), { setting: 'Property Manager → Modify Outgoing Response Header behavior (Add, custom header Link) in a rule matching the path /', text: LINK_TEXT, docUrl: 'https://techdocs.akamai.com/property-mgr/docs/modify-outgoing-response-header', snippet: `Link: ${HOME_LINK}` }),
};

const FASTLY = 'https://www.fastly.com/documentation/guides/security/bot-management/about-bot-management/';
const FASTLY_ROBOTS = 'https://www.fastly.com/documentation/solutions/examples/serve-robots.txt-from-the-edge';
/** Fastly can answer a path itself (a synthetic response), so robots.txt and the discovery files can live at the edge. */
const fastlyRobots = (what: string) => ({ agents }: { agents: readonly string[] }): FixEntry => ({
  setting: 'VCL: robots.txt served from the edge as a synthetic response',
  text: `${what} ${listed(agents)}: add the groups to robots.txt, either at the origin or, if Fastly answers /robots.txt itself, in the synthetic response that serves it.`,
  docUrl: FASTLY_ROBOTS,
});
const fastlyFiles = staticFileFixes((f) => ({
  setting: 'VCL: a synthetic response (error in vcl_recv, synthetic in vcl_error)',
  text: `Publish ${f.what} at ${f.path} at the origin, or have Fastly answer ${f.path} itself with a synthetic response (status 200, a text/plain Content-Type and the file as its body), as it can for robots.txt.`,
  docUrl: 'https://www.fastly.com/documentation/reference/vcl/statements/synthetic/',
}));
export const fastly: PlatformEntry = {
  id: 'fastly', name: 'Fastly', role: 'edge', vendors: ['fastly'],
  ...withExtra(withLink(botManagerFixes({
    name: 'Fastly (Bot Management / Next-Gen WAF)', setting: 'Security → Bot Management and Next-Gen WAF rules', docUrl: FASTLY,
    allow: (t) => `Allow ${listed(t)} in Bot Management (verified bots) and remove them from any Next-Gen WAF rule that blocks them (its default block answers 406).`,
    deny: (t) => `Add a Next-Gen WAF rule that blocks requests whose user-agent contains ${listed(t)}.`,
    rateLimit: { setting: 'Next-Gen WAF → rate limit rules', text: (t) => `A rate limit rule answers ${listed(t)} with 429 on one request; raise its threshold or exclude them.`, docUrl: FASTLY },
  }), { setting: 'VCL: set resp.http.Link in vcl_deliver (a VCL snippet)', text: LINK_TEXT, docUrl: 'https://www.fastly.com/documentation/guides/full-site-delivery/fastly-vcl/writing-vcl-code/', snippet: `# vcl_deliver\nif (req.url.path == "/") {\n  set resp.http.Link = {"${HOME_LINK}"};\n}` }), {
    'policy.training-preference': fastlyRobots('Declare a training preference with groups for'),
    'policy.ai-rules-explicit': fastlyRobots('State a policy per AI role with groups for'),
    ...fastlyFiles,
  }),
};

const AWS = 'https://docs.aws.amazon.com/waf/latest/developerguide/waf-bot-control-example-allow-verified-bots.html';
export const aws: PlatformEntry = {
  id: 'aws', name: 'AWS CloudFront / WAF', role: 'edge', vendors: ['aws-waf'],
  ...withLink(botManagerFixes({
    name: 'AWS WAF', setting: 'Web ACL → AWS WAF Bot Control rule group (AWSManagedRulesBotControlRuleSet) and a label-match Allow rule', docUrl: AWS,
    allow: (t) => `In the web ACL, override the Bot Control rule that matches ${listed(t)} to Count, then add a rule after the rule group that allows the verified-bot label (awswaf:managed:aws:bot-control:bot:verified).`,
    deny: (t) => `In the web ACL add a rule after Bot Control that blocks ${listed(t)} (a label match on their bot:name labels, or a user-agent string match).`,
    rateLimit: { setting: 'Web ACL → rate-based rule', text: (t) => `A rate-based rule answers ${listed(t)} on one request; aggregate on IP with a realistic limit, or scope it down to exclude them.`, docUrl: 'https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-bot.html' },
  }), { setting: 'CloudFront → Policies → Response headers policy (Custom headers), attached to the cache behavior serving /', text: LINK_TEXT, docUrl: 'https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/creating-response-headers-policies.html', snippet: `Link: ${HOME_LINK}` }),
};

const AZURE = 'https://learn.microsoft.com/azure/web-application-firewall/afds/waf-front-door-policy-configure-bot-protection';
export const azureFrontDoor: PlatformEntry = {
  id: 'azure-front-door', name: 'Azure Front Door', role: 'edge', vendors: ['azure-front-door'],
  ...withLink(botManagerFixes({
    name: 'Azure Front Door WAF', setting: 'WAF policy → Managed rules (Microsoft_BotManagerRuleSet) and Custom rules', docUrl: AZURE,
    allow: (t) => `In the WAF policy add a custom rule (custom rules run first) matching RequestHeader User-Agent contains ${listed(t)} with the Allow action, or set the bot-manager rule that matches them to Log.`,
    deny: (t) => `In the WAF policy add a custom rule matching RequestHeader User-Agent contains ${listed(t)} with the Block action.`,
    rateLimit: { setting: 'WAF policy → Custom rules (rate limit)', text: (t) => `A rate-limit rule answers ${listed(t)} with 429 on one request; raise its threshold or exclude them.`, docUrl: AZURE },
  }), { setting: 'Rule set → action Modify response header (Append, Link), with a Request path condition for /', text: LINK_TEXT, docUrl: 'https://learn.microsoft.com/azure/frontdoor/front-door-rules-engine-actions', snippet: `Link: ${HOME_LINK}` }),
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
