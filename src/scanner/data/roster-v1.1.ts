/**
 * roster-v1.1: the agents of roster-v1.0 (same tokens, same order, so grid keys stay
 * `grid:<token>`), each carrying the whole request it really sends, with sources; the
 * browser control as a current stable Chrome navigates; and the products that share a token
 * but ask differently (Claude Code as Claude-User asks for Markdown).
 *
 * Facts: operators' crawler pages, and one public capture of real requests with the source
 * address checked against the vendors' IP lists (G. Koreli, 2026-09-03, data published). That
 * capture sat behind a Cloudflare Worker, which rewrites Accept-Encoding and does not keep header
 * order, so no agent's Accept-Encoding or order is published: both are our stated defaults.
 * Editing anything here is a roster version bump (ROSTER_VERSION in ../versions.ts).
 */
import type { ArrivalRequest, Basis, HeaderList, ProductArrival, Source } from './arrival.ts';
import { ROSTER_V1_0, type RosterAgent } from './roster-v1.0.ts';

const S = {
  openai: { url: 'https://developers.openai.com/api/docs/bots', what: 'OpenAI: user-agent strings of GPTBot, OAI-SearchBot, ChatGPT-User' },
  anthropic: { url: 'https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler', what: 'Anthropic: the tokens ClaudeBot, Claude-User, Claude-SearchBot (no full strings printed)' },
  perplexity: { url: 'https://docs.perplexity.ai/guides/bots', what: 'Perplexity: user-agent strings of PerplexityBot and Perplexity-User' },
  googleOverview: { url: 'https://developers.google.com/crawling/docs/crawlers-fetchers/overview-google-crawlers', what: 'Google: every crawler advertises its encodings, e.g. "Accept-Encoding: gzip, deflate, br"' },
  googleCommon: { url: 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers', what: 'Google: common crawler user-agents (Chrome/W.X.Y.Z is the evergreen Chrome version)' },
  googleUser: { url: 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers', what: 'Google: user-triggered fetchers and agents (Google-Agent)' },
  apple: { url: 'https://support.apple.com/en-us/119829', what: 'Apple: Applebot user-agent' },
  meta: { url: 'https://developers.facebook.com/docs/sharing/webmasters/crawler', what: 'Meta: meta-externalagent and meta-externalfetcher' },
  commonCrawl: { url: 'https://commoncrawl.org/ccbot', what: 'Common Crawl: CCBot user-agent' },
  amazon: { url: 'https://developer.amazon.com/amazonbot', what: 'Amazon: Amazonbot user-agent' },
  duck: { url: 'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot', what: 'DuckDuckGo: DuckAssistBot user-agent' },
  mistral: { url: 'https://docs.mistral.ai/robots', what: 'Mistral: MistralAI-User and MistralAI-Index user-agents' },
  uaList: { url: 'https://github.com/monperrus/crawler-user-agents', what: 'crawler-user-agents: user-agent instances seen in logs (third party)' },
  capture: { url: 'https://gkoreli.com/which-ai-fetchers-send-which-headers', what: 'public capture, 2026-09-03: every request header of real agent requests, source addresses checked against the vendors\' IP lists' },
  captureData: { url: 'https://github.com/gkoreli/blog/tree/main/packages/blog/drafts/research/ai-fetcher-headers/data', what: 'the capture\'s data (captures.jsonl, side-requests.jsonl, stray-probe-requests.jsonl)' },
  acceptMd: { url: 'https://acceptmarkdown.com/status.md', what: 'which agents ask for text/markdown (verified 2026-04-18)' },
  mdream: { url: 'https://mdream.dev/tools/accept-header', what: 'Accept headers of Claude Code, Cursor and Codex CLI, replayed' },
} as const satisfies Record<string, Source>;

/** What roster-v1.0 sent with every agent's UA, and what an agent with no published capture still gets. */
const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const DEFAULT_LANGUAGE = 'en-US,en;q=0.9';
const DEFAULT_ENCODING = 'gzip, deflate, br';
const ENCODING_NOTE = 'Accept-Encoding is not published (the capture\'s CDN rewrites it): we send gzip, deflate, br.';
const ORDER_NOTE = 'Header order is not published: ours is User-Agent, Accept, Accept-Language, Accept-Encoding, then any other.';

interface Spec {
  ua: string;
  uaBasis: Basis;
  sources: Source[];
  /** Captured values; `null` = the capture shows the agent sends none. Absent = not published, default sent. */
  accept?: string | null;
  language?: string | null;
  encoding?: [string, Basis];
  /** Further captured or documented headers, after the standard ones. */
  extra?: Array<[string, string, Basis]>;
  note?: string;
}

/** An agent's request from what is published about it; anything unpublished is the stated default. */
function request(s: Spec): ArrivalRequest {
  const headers: Array<[string, string]> = [['user-agent', s.ua]];
  const basis: Record<string, Basis> = { 'user-agent': s.uaBasis };
  const put = (name: string, value: string | null | undefined, fallback: string, captured: Basis = 'captured') => {
    if (value === null) return;
    headers.push([name, value ?? fallback]);
    basis[name] = value === undefined ? 'default' : captured;
  };
  put('accept', s.accept, DEFAULT_ACCEPT);
  put('accept-language', s.language, DEFAULT_LANGUAGE);
  headers.push(['accept-encoding', s.encoding?.[0] ?? DEFAULT_ENCODING]);
  basis['accept-encoding'] = s.encoding?.[1] ?? 'default';
  for (const [name, value, b] of s.extra ?? []) {
    headers.push([name, value]);
    basis[name] = b;
  }
  const unpublished = s.accept === undefined && s.language === undefined
    ? 'No public capture of this agent\'s request: Accept and Accept-Language are roster-v1.0\'s defaults.'
    : '';
  const note = [unpublished, s.encoding?.[1] === 'documented' ? '' : ENCODING_NOTE, ORDER_NOTE, s.note ?? ''].filter(Boolean).join(' ');
  return { headers, basis, order: 'default', sources: s.sources, note };
}

const CHROME_MAJOR = 156;
/** Google's and Amazon's strings carry the evergreen Chrome version (W.X.Y.Z), which they do not publish: we use our control's. */
const EVERGREEN = `Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`;
const EVERGREEN_NOTE = `The Chrome/W.X.Y.Z version in the documented string is not published: we send ${CHROME_MAJOR}.0.0.0, the browser control's.`;
const GOOGLE_ENCODING: [string, Basis] = ['gzip, deflate, br', 'documented'];

/** Per token: how the agent arrives. Entries absent here are token-only (no request). */
const REQUESTS: Record<string, Spec> = {
  'GPTBot': {
    ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.4; +https://openai.com/gptbot', uaBasis: 'documented',
    accept: '*/*', language: null, extra: [['from', 'gptbot(at)openai.com', 'captured']],
    sources: [S.openai, S.capture, S.captureData],
    note: 'Accept and From come from one captured GPTBot request whose address was not checked against gptbot.json and whose user-agent put the semicolon inside the parenthesis; we send OpenAI\'s documented string. Its X-OpenAI-Host-Hash (a per-site value we cannot compute) is left out.',
  },
  'OAI-SearchBot': { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.4; +https://openai.com/searchbot', uaBasis: 'documented', sources: [S.openai] },
  'ChatGPT-User': {
    ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', uaBasis: 'documented',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.9',
    language: 'en-US,en;q=0.9', extra: [['x-envoy-expected-rq-timeout-ms', '15000', 'captured']],
    sources: [S.openai, S.capture, S.captureData],
    note: 'Captured from an address in chatgpt-user.json; its X-Request-Id (a fresh UUID per request) is left out so that evidence stays deterministic.',
  },
  'ClaudeBot': { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', uaBasis: 'captured', sources: [S.anthropic, S.uaList], note: 'Anthropic names the token only; the full string is from crawler-user-agents.' },
  'Claude-User': {
    ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +claude-user@anthropic.com)', uaBasis: 'captured',
    accept: '*/*', language: null, sources: [S.anthropic, S.capture, S.captureData],
    note: 'Claude.ai\'s fetcher, captured from an address in claude.com/crawling/bots.json. Claude Code also arrives as Claude-User, from the user\'s machine and asking for Markdown: see the products below.',
  },
  'Claude-SearchBot': { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)', uaBasis: 'captured', sources: [S.anthropic, S.uaList], note: 'Anthropic names the token only; the full string is from crawler-user-agents and unconfirmed.' },
  'PerplexityBot': {
    ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', uaBasis: 'documented',
    accept: null, language: null, extra: [['from', 'crawler-support@perplexity.ai', 'captured']], sources: [S.perplexity, S.capture],
    note: 'Captured from addresses in perplexitybot.json: no Accept and no Accept-Language at all, and a From header.',
  },
  'Perplexity-User': { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)', uaBasis: 'documented', sources: [S.perplexity], note: 'The public capture asked Perplexity seven times; Perplexity-User never arrived.' },
  'Googlebot': { ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) ${EVERGREEN}`, uaBasis: 'documented', encoding: GOOGLE_ENCODING, sources: [S.googleCommon, S.googleOverview], note: EVERGREEN_NOTE },
  'Google-CloudVertexBot': { ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search) ${EVERGREEN}`, uaBasis: 'documented', encoding: GOOGLE_ENCODING, sources: [S.googleCommon, S.googleOverview, S.uaList], note: EVERGREEN_NOTE },
  'GoogleOther': { ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GoogleOther) ${EVERGREEN}`, uaBasis: 'documented', encoding: GOOGLE_ENCODING, sources: [S.googleCommon, S.googleOverview], note: EVERGREEN_NOTE },
  'Google-Agent': { ua: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent) ${EVERGREEN}`, uaBasis: 'documented', encoding: GOOGLE_ENCODING, sources: [S.googleUser, S.googleOverview], note: `${EVERGREEN_NOTE} Google-Agent may sign its requests (Web Bot Auth); we cannot, and do not.` },
  'Applebot': { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', uaBasis: 'documented', sources: [S.apple] },
  'meta-externalagent': { ua: 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', uaBasis: 'documented', sources: [S.meta, S.uaList] },
  'meta-externalfetcher': { ua: 'meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', uaBasis: 'documented', sources: [S.meta, S.uaList] },
  'FacebookBot': { ua: 'Mozilla/5.0 (compatible; FacebookBot/1.0; +https://developers.facebook.com/docs/sharing/webmasters/facebookbot/)', uaBasis: 'captured', sources: [S.uaList] },
  'CCBot': { ua: 'CCBot/2.0 (https://commoncrawl.org/faq/)', uaBasis: 'documented', sources: [S.commonCrawl] },
  'Bytespider': { ua: 'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)', uaBasis: 'captured', sources: [S.uaList], note: 'ByteDance publishes no crawler page we could reach; the string is from crawler-user-agents.' },
  'Amazonbot': { ua: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1) ${EVERGREEN}`, uaBasis: 'documented', sources: [S.amazon], note: EVERGREEN_NOTE },
  'Amzn-SearchBot': { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amzn-SearchBot/0.1) Chrome/119.0.6045.214 Safari/537.36', uaBasis: 'captured', sources: [S.amazon, S.uaList] },
  'Amzn-User': { ua: 'Mozilla/5.0 (compatible; Amzn-User; +https://developer.amazon.com/)', uaBasis: 'captured', sources: [S.amazon, S.uaList] },
  'DuckAssistBot': {
    ua: 'DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)', uaBasis: 'documented', accept: '*/*', language: null, sources: [S.duck, S.capture, S.captureData],
    note: 'Captured from an address in duckassistbot.json, signed with Web Bot Auth as https://assistbot.duckduckgo.com; we cannot sign as DuckDuckGo, and do not.',
  },
  'MistralAI-User': {
    ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)', uaBasis: 'documented',
    accept: 'text/html,application/xhtml+xml,application/xml,application/json;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    language: 'en-US,en;q=0.9',
    extra: [
      ['cache-control', 'no-cache', 'captured'], ['pragma', 'no-cache', 'captured'],
      ['sec-ch-ua', '"Not_A Brand";v="8", "Chromium";v="120", "Google Chrome";v="120"', 'captured'], ['sec-ch-ua-mobile', '?0', 'captured'], ['sec-ch-ua-platform', '"macOS"', 'captured'],
      ['sec-fetch-dest', 'document', 'captured'], ['sec-fetch-mode', 'navigate', 'captured'], ['sec-fetch-site', 'none', 'captured'], ['sec-fetch-user', '?1', 'captured'],
      ['upgrade-insecure-requests', '1', 'captured'],
    ],
    sources: [S.mistral, S.capture, S.captureData],
    note: 'Captured from an address in mistralai-user-ips.json: a browser engine\'s header set (Fetch Metadata and client hints included). A second request of the same question was a plain HTTP client with Chrome\'s Accept and no Accept-Language; we send the first.',
  },
  'MistralAI-Index': { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-Index/1.0; +https://docs.mistral.ai/robots)', uaBasis: 'documented', sources: [S.mistral] },
  'Diffbot': { ua: 'Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.1.2) Gecko/20090729 Firefox/3.5.2 (.NET CLR 3.5.30729; Diffbot/0.1; +http://www.diffbot.com)', uaBasis: 'captured', sources: [S.uaList] },
  'YouBot': { ua: 'YouBot (+http://www.you.com)', uaBasis: 'captured', sources: [S.uaList] },
  'archive.org_bot': { ua: 'Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)', uaBasis: 'captured', sources: [S.uaList] },
};

export const ROSTER_V1_1: readonly RosterAgent[] = ROSTER_V1_0.map((a): RosterAgent => {
  const spec = REQUESTS[a.token];
  if (!spec) return a;
  return { ...a, ua: spec.ua, request: request(spec) };
});

/**
 * The browser control: Chromium 156's navigation request over HTTP/1.1, as captured with its raw
 * header order (test/browser/control-request.test.ts keeps checking it), corrected where headless
 * differs from the Chrome people use: `HeadlessChrome/` in the UA becomes `Chrome/`, and Chrome's
 * brand list adds "Google Chrome" in the place Chromium's brand permutation gives it for 156
 * (the same rule reproduces the Chrome 148 and 152 lists of the public capture). HTTP/1.1 carries
 * no Priority header; over HTTP/2 Chrome adds `priority: u=0, i`.
 */
const CHROME_UA = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`;
const CHROME_HEADERS: HeaderList = [
  ['sec-ch-ua', `"Not:A-Brand";v="8", "Chromium";v="${CHROME_MAJOR}", "Google Chrome";v="${CHROME_MAJOR}"`],
  ['sec-ch-ua-mobile', '?0'],
  ['sec-ch-ua-platform', '"Linux"'],
  ['Upgrade-Insecure-Requests', '1'],
  ['User-Agent', CHROME_UA],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'],
  ['Sec-Fetch-Site', 'none'],
  ['Sec-Fetch-Mode', 'navigate'],
  ['Sec-Fetch-User', '?1'],
  ['Sec-Fetch-Dest', 'document'],
  ['Accept-Encoding', 'gzip, deflate, br, zstd'],
  ['Accept-Language', 'en-US,en;q=0.9'],
];
export const CONTROL_V1_1: ArrivalRequest = {
  headers: CHROME_HEADERS,
  basis: Object.fromEntries(CHROME_HEADERS.map(([n]) => [n.toLowerCase(), n === 'sec-ch-ua' || n === 'User-Agent' ? 'corrected' : 'captured' as Basis])),
  order: 'captured',
  sources: [
    { url: 'https://source.chromium.org/chromium/chromium/src/+/main:components/embedder_support/user_agent_utils.cc', what: 'Chromium: the brand list and its GREASE entry, permuted by the major version' },
    { url: 'test/browser/control-request.test.ts', what: `our capture: Chromium ${CHROME_MAJOR}.0.8078.108 (Debian) navigating through playwright-core, headers in raw order (req.rawHeaders)` },
    S.capture,
  ],
  note: `Captured from Chromium ${CHROME_MAJOR} in headless mode and corrected to what Chrome sends headed: HeadlessChrome/ becomes Chrome/ in the User-Agent, and "Google Chrome" joins the brand list. Linux, en-US, as captured.`,
};

/** Products that arrive under a token of their own choosing, measured for Markdown. */
export const PRODUCTS_V1_1: readonly ProductArrival[] = [
  {
    id: 'claude-code', product: 'Claude Code', vendor: 'Anthropic', token: 'Claude-User', asks: 'accept',
    request: {
      headers: [['user-agent', 'Claude-User (claude-code/2.1.259; +https://support.anthropic.com/)'], ['accept', 'text/markdown, text/html, */*'], ['accept-encoding', DEFAULT_ENCODING]],
      basis: { 'user-agent': 'captured', accept: 'captured', 'accept-encoding': 'default' },
      order: 'default', sources: [S.capture, S.acceptMd, S.mdream],
      note: `Claude Code's web fetch, captured from the user's own network (it runs on the user's machine). No Accept-Language. ${ENCODING_NOTE} ${ORDER_NOTE}`,
    },
  },
  {
    id: 'cursor', product: 'Cursor', vendor: 'Anysphere', token: null, asks: 'accept',
    request: {
      headers: [['user-agent', 'Cursor/1.0'], ['accept', 'text/markdown, text/plain;q=0.9, */*;q=0.8'], ['accept-encoding', DEFAULT_ENCODING]],
      basis: { 'user-agent': 'default', accept: 'documented', 'accept-encoding': 'default' },
      order: 'default', sources: [S.acceptMd, S.mdream],
      note: `Cursor's Accept is published; its User-Agent is not: we send Cursor/1.0, the stand-in mdream's replay uses. ${ENCODING_NOTE} ${ORDER_NOTE}`,
    },
  },
  {
    id: 'codex-cli', product: 'Codex CLI', vendor: 'OpenAI', token: null, asks: 'alternate',
    request: {
      headers: [['user-agent', 'codex/1.0'], ['accept', 'text/html, */*'], ['accept-encoding', DEFAULT_ENCODING]],
      basis: { 'user-agent': 'default', accept: 'documented', 'accept-encoding': 'default' },
      order: 'default', sources: [S.acceptMd, S.mdream],
      note: `Codex CLI fetches HTML, then follows the page's rel="alternate" type="text/markdown" link. Its User-Agent is not published: we send codex/1.0, the stand-in mdream's replay uses. ${ENCODING_NOTE} ${ORDER_NOTE}`,
    },
  },
];
