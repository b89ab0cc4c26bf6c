/**
 * roster-v1.0: the AI agents a scan reports on, in report order.
 *
 * Facts (tokens, user-agent strings, vendors, published IP lists) come from
 * shared/research/domain-facts.md §1.1. Editing anything here is a roster
 * version bump (ROSTER_VERSION in ../versions.ts). Probes send the exact UA;
 * robots.txt rules and responses are matched on the token.
 */
import type { ArrivalRequest } from './arrival.ts';

export type Intent = 'training' | 'user-fetch' | 'search' | 'archive';

export interface RosterAgent {
  /** robots.txt product token; also the grid key suffix (`grid:<token>`). */
  token: string;
  vendor: string;
  intent: Intent;
  /** No crawler of its own: judged from robots.txt alone, never probed. */
  tokenOnly: boolean;
  /** Exact user-agent sent by a probe (null for token-only agents). */
  ua: string | null;
  /** The vendor's published IP list, when one exists (evidence for readers; we cannot send from it). */
  ipList: string | null;
  /** robots.txt group to use when the file has no group naming this token (Apple: Applebot follows Googlebot). */
  robotsFallback?: string;
  /** Probed for context only, never scored (edges rightly turn away an unverified Googlebot from cloud IPs). */
  contextOnly?: boolean;
  /**
   * roster-v1.1 on: the whole request as the agent sends it (`ua` is its User-Agent). Absent in
   * roster-v1.0, whose probes sent the UA with a fixed Accept, Accept-Language and Accept-Encoding.
   */
  request?: ArrivalRequest;
}

const CHROME = 'Chrome/131.0.0.0 Safari/537.36';

export const ROSTER_V1_0: readonly RosterAgent[] = [
  { token: 'GPTBot', vendor: 'OpenAI', intent: 'training', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.4; +https://openai.com/gptbot', ipList: 'https://openai.com/gptbot.json' },
  { token: 'OAI-SearchBot', vendor: 'OpenAI', intent: 'search', tokenOnly: false, ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.4; +https://openai.com/searchbot', ipList: 'https://openai.com/searchbot.json' },
  { token: 'ChatGPT-User', vendor: 'OpenAI', intent: 'user-fetch', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', ipList: 'https://openai.com/chatgpt-user.json' },
  { token: 'ClaudeBot', vendor: 'Anthropic', intent: 'training', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', ipList: 'https://claude.com/crawling/bots.json' },
  { token: 'Claude-User', vendor: 'Anthropic', intent: 'user-fetch', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +claude-user@anthropic.com)', ipList: 'https://claude.com/crawling/bots.json' },
  { token: 'Claude-SearchBot', vendor: 'Anthropic', intent: 'search', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)', ipList: 'https://claude.com/crawling/bots.json' },
  { token: 'anthropic-ai', vendor: 'Anthropic', intent: 'training', tokenOnly: true, ua: null, ipList: null },
  { token: 'Claude-Web', vendor: 'Anthropic', intent: 'user-fetch', tokenOnly: true, ua: null, ipList: null },
  { token: 'PerplexityBot', vendor: 'Perplexity', intent: 'search', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', ipList: 'https://www.perplexity.com/perplexitybot.json' },
  { token: 'Perplexity-User', vendor: 'Perplexity', intent: 'user-fetch', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)', ipList: 'https://www.perplexity.com/perplexity-user.json' },
  { token: 'Google-Extended', vendor: 'Google', intent: 'training', tokenOnly: true, ua: null, ipList: null },
  { token: 'Googlebot', vendor: 'Google', intent: 'search', tokenOnly: false, contextOnly: true, ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) ${CHROME}`, ipList: 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json' },
  { token: 'Google-CloudVertexBot', vendor: 'Google', intent: 'search', tokenOnly: false, ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search) ${CHROME}`, ipList: 'https://developers.google.com/static/crawling/ipranges/special-crawlers.json' },
  { token: 'GoogleOther', vendor: 'Google', intent: 'training', tokenOnly: false, ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GoogleOther) ${CHROME}`, ipList: 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json' },
  { token: 'Google-Agent', vendor: 'Google', intent: 'user-fetch', tokenOnly: false, ua: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent) ${CHROME}`, ipList: 'https://developers.google.com/static/crawling/ipranges/user-triggered-agents.json' },
  { token: 'Applebot', vendor: 'Apple', intent: 'search', tokenOnly: false, robotsFallback: 'Googlebot', ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', ipList: 'https://search.developer.apple.com/applebot.json' },
  { token: 'Applebot-Extended', vendor: 'Apple', intent: 'training', tokenOnly: true, ua: null, ipList: null },
  { token: 'meta-externalagent', vendor: 'Meta', intent: 'training', tokenOnly: false, ua: 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', ipList: null },
  { token: 'meta-externalfetcher', vendor: 'Meta', intent: 'user-fetch', tokenOnly: false, ua: 'meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', ipList: null },
  { token: 'FacebookBot', vendor: 'Meta', intent: 'training', tokenOnly: false, ua: 'Mozilla/5.0 (compatible; FacebookBot/1.0; +https://developers.facebook.com/docs/sharing/webmasters/facebookbot/)', ipList: null },
  { token: 'CCBot', vendor: 'Common Crawl', intent: 'archive', tokenOnly: false, ua: 'CCBot/2.0 (https://commoncrawl.org/faq/)', ipList: 'https://index.commoncrawl.org/ccbot.json' },
  { token: 'Bytespider', vendor: 'ByteDance', intent: 'training', tokenOnly: false, ua: 'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)', ipList: null },
  { token: 'Amazonbot', vendor: 'Amazon', intent: 'training', tokenOnly: false, ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) ${CHROME}`, ipList: 'https://developer.amazon.com/amazonbot/ip-addresses/' },
  { token: 'Amzn-SearchBot', vendor: 'Amazon', intent: 'search', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amzn-SearchBot/0.1) Chrome/119.0.6045.214 Safari/537.36', ipList: 'https://developer.amazon.com/amazonbot/ip-addresses/' },
  { token: 'Amzn-User', vendor: 'Amazon', intent: 'user-fetch', tokenOnly: false, ua: 'Mozilla/5.0 (compatible; Amzn-User; +https://developer.amazon.com/)', ipList: 'https://developer.amazon.com/amazonbot/live-ip-addresses/' },
  { token: 'DuckAssistBot', vendor: 'DuckDuckGo', intent: 'user-fetch', tokenOnly: false, ua: 'DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)', ipList: 'https://duckduckgo.com/duckassistbot.json' },
  { token: 'MistralAI-User', vendor: 'Mistral', intent: 'user-fetch', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)', ipList: 'https://mistral.ai/mistralai-user-ips.json' },
  { token: 'MistralAI-Index', vendor: 'Mistral', intent: 'search', tokenOnly: false, ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-Index/1.0; +https://docs.mistral.ai/robots)', ipList: 'https://mistral.ai/mistralai-index-ips.json' },
  { token: 'cohere-ai', vendor: 'Cohere', intent: 'user-fetch', tokenOnly: true, ua: null, ipList: null },
  { token: 'Diffbot', vendor: 'Diffbot', intent: 'training', tokenOnly: false, ua: 'Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.1.2) Gecko/20090729 Firefox/3.5.2 (.NET CLR 3.5.30729; Diffbot/0.1; +http://www.diffbot.com)', ipList: null },
  { token: 'YouBot', vendor: 'You.com', intent: 'search', tokenOnly: false, ua: 'YouBot (+http://www.you.com)', ipList: null },
  { token: 'archive.org_bot', vendor: 'Internet Archive', intent: 'archive', tokenOnly: false, ua: 'Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)', ipList: null },
  { token: 'ia_archiver', vendor: 'Internet Archive', intent: 'archive', tokenOnly: true, ua: null, ipList: null },
];

/** The browser control: an ordinary current desktop Chrome. */
export const BROWSER_UA = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ${CHROME}`;
