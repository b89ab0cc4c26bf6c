// Who refused, what each agent is charged, and whether a refusal can be acted on (issue 36, items
// 4, 5 and 6): the site's own server, its edge, a SaaS platform's bot rules (Shopify and Zendesk
// look-alikes), our own network's egress policy; 402 to one agent and free to the rest; x402 v1
// and v2; refusals an agent can read, and bare ones.
//
// Fidelity: built-around-published-markers. Platform headers as public sources record them:
// Shopify X-ShopId, X-Sorting-Hat-ShopId, X-Storefront-Renderer-Rendered (https://http.dev/x-shopid,
// https://http.dev/x-storefront-renderer-rendered); Zendesk x-zendesk-origin-server and
// x-zendesk-request-id (intrigueio/intrigue-ident's Zendesk fingerprint; public captures of
// help-centre answers). The Shopify 429 to Claude-User follows anthropics/claude-code#44448, the
// Zendesk "Block AI Bots" refusal anthropics/claude-ai-mcp#80; the egress refusal
// (`Server: envoy`, `x-deny-reason: host_not_allowed`) anthropics/claude-code#74025. x402 shapes as
// x402-rs/x402-rs thinking-req.md prints v1 (body) and v2 (PAYMENT-REQUIRED header).
import type { Scenario } from '../site.ts';
import { cloudflare, type EdgeResponse } from '../vendors.ts';

const USER_FETCH = ['ChatGPT-User', 'Claude-User', 'Perplexity-User'];
const TRAINING = ['GPTBot', 'ClaudeBot', 'CCBot'];

const SHOPIFY = { ...cloudflare.presence, 'x-shopid': '55083958454', 'x-sorting-hat-shopid': '55083958454', 'x-storefront-renderer-rendered': '1' };
const ZENDESK = { ...cloudflare.presence, 'x-zendesk-origin-server': 'classic-app-server-846d896966-zgbb8', 'x-zendesk-request-id': '6a161903fc8d3b1c' };

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAYEE = '0xfa3F54AE9C4287CA09a486dfaFaCe7d1d4095d93';
const x402v2 = (): EdgeResponse => ({
  status: 402,
  headers: { 'content-type': 'application/json', 'payment-required': b64({ x402Version: 2, error: 'Payment required', resource: { url: 'https://{domain}/' }, accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '5000', asset: USDC, payTo: PAYEE, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } }] }) },
  body: '{}',
});
const x402v1 = (): EdgeResponse => ({
  status: 402,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ x402Version: 1, error: 'X-PAYMENT header is required', accepts: [{ scheme: 'exact', network: 'base', maxAmountRequired: '20000', resource: 'https://{domain}/', payTo: PAYEE, asset: USDC, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } }] }),
});

export const PARTY_SCENARIOS: Scenario[] = [
  {
    name: 'refusal-origin-bare',
    about: 'The site\'s own server answers three training crawlers 403 "Forbidden" in plain text: no edge, no platform, nothing an agent can act on.',
    edge: [{ who: TRAINING, paths: ['/'], respond: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' } }],
    expect: {
      headline: 'partially-blocked', verdicts: { GPTBot: 'denied', ClaudeBot: 'denied', 'ChatGPT-User': 'pass' },
      refusedBy: { GPTBot: [{ party: 'origin', evidence: /^HTTP 403 with no CDN, WAF or platform denial marker$/ }, { party: 'origin' }], 'ChatGPT-User': [null, null] },
      reasons: [/^Requests identifying as GPTBot, ClaudeBot and CCBot from networkA and networkB were refused by the site's own server \(evidence: HTTP 403 with no CDN, WAF or platform denial marker\)\.$/],
      previewChecks: { 'access.refusal-readable': ['fail', 'no readable refusal'] },
      previewDetails: { 'access.refusal-readable': /^6 of 6 refusals an agent cannot act on \(GPTBot on networkA, GPTBot on networkB, ClaudeBot on networkA, ClaudeBot on networkB and 2 more: text\/plain body of 9 bytes with no machine-readable reason and no policy link\)$/ },
    },
  },
  {
    name: 'refusal-edge-signature',
    about: 'Cloudflare blocks the training crawlers with its 1020 page and an Accept-Signature header: the edge refused, and it asks agents to sign, though this scan does not sign.',
    presence: cloudflare.presence,
    edge: [{ who: TRAINING, paths: ['/'], respond: { ...cloudflare.block1020(), headers: { 'content-type': 'text/html', 'accept-signature': 'sig1=("@authority" "signature-agent");tag="web-bot-auth"' } } }],
    expect: {
      headline: 'partially-blocked', verdicts: { GPTBot: 'denied' },
      refusedBy: { GPTBot: [{ party: 'edge', vendor: 'cloudflare', evidence: /^HTTP 403, Cloudflare: /, asksToSign: /^sig1=/ }, { party: 'edge', vendor: 'cloudflare' }] },
      reasons: [
        /^Requests identifying as GPTBot, ClaudeBot and CCBot from networkA and networkB were refused by the site's edge \(Cloudflare\) \(evidence: HTTP 403, Cloudflare: .+\)\.$/,
        /^The refusals carry Accept-Signature \(sig1=.*\): the edge asks agents to sign their requests \(Web Bot Auth\); this scan's own requests were not signed\.$/,
      ],
      previewChecks: { 'access.refusal-readable': ['fail', 'no readable refusal'] },
      previewDetails: { 'access.refusal-readable': /text\/html body of \d+ bytes with no machine-readable reason and no policy link/ },
    },
  },
  {
    name: 'refusal-shopify',
    about: 'A Shopify-hosted store (Shopify headers behind Cloudflare): Shopify\'s edge answers Claude-User 429 while every other agent gets the page.',
    presence: SHOPIFY,
    edge: [{ who: ['Claude-User'], paths: ['/'], respond: { status: 429, headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Too Many Requests</title><p>Too many requests.</p>' } }],
    expect: {
      headline: 'partially-blocked', verdicts: { 'Claude-User': 'denied', 'ChatGPT-User': 'pass', 'Perplexity-User': 'pass' },
      refusedBy: { 'Claude-User': [{ party: 'platform', vendor: 'shopify', evidence: /^HTTP 429 with x-shopid: 55083958454$/ }, { party: 'platform', vendor: 'shopify' }] },
      reasons: [/^Requests identifying as Claude-User from networkA and networkB were refused by the Shopify platform's bot rules, not by your site \(evidence: HTTP 429 with x-shopid: 55083958454\)\. Shopify documents no owner setting for these rules: ask Shopify support \(https:\/\/help\.shopify\.com\/en\/questions\)\.$/],
      platformFixes: [{ platform: 'shopify', text: /^Shopify's own bot rules refused Claude-User before your site answered/ }],
      previewChecks: { 'access.refusal-readable': ['fail', 'no readable refusal'] },
      previewDetails: { 'access.refusal-readable': /^2 of 2 refusals an agent cannot act on \(Claude-User on networkA, Claude-User on networkB: no Retry-After on 429; text\/html body/ },
    },
  },
  {
    name: 'refusal-zendesk',
    about: 'A Zendesk help centre: the "Block AI Bots" rule on Zendesk\'s Cloudflare answers the three user-fetch agents with a 1020 page carrying Zendesk\'s headers.',
    presence: ZENDESK,
    edge: [{ who: USER_FETCH, paths: ['/'], respond: cloudflare.block1020() }],
    expect: {
      headline: 'partially-blocked', verdicts: { 'Claude-User': 'denied', GPTBot: 'pass' },
      refusedBy: { 'Claude-User': [{ party: 'platform', vendor: 'zendesk', evidence: /^HTTP 403 with x-zendesk-origin-server: classic-app-server/ }, { party: 'platform', vendor: 'zendesk' }] },
      reasons: [/^Requests identifying as ChatGPT-User, Claude-User and Perplexity-User from networkA and networkB were refused by the Zendesk platform's bot rules, not by your site .*ask Zendesk support/],
      platformFixes: [{ platform: 'zendesk', text: /ChatGPT-User, Claude-User and Perplexity-User/ }],
    },
  },
  {
    name: 'egress-refused-b',
    about: 'Our networkB egress policy refuses the site\'s address (403 from our own proxy, as envoy answers): networkB could not measure, which is never counted against the site.',
    expect: {
      headline: 'open', vantagesConfirmed: false, edge: { control: ['pass', 'transport-error'], GPTBot: ['pass', 'transport-error'] },
      refusedBy: { GPTBot: [null, { party: 'network', evidence: /^error PROXY: our egress proxy refused the tunnel \(HTTP 403\)$/ }] },
      reasons: [/^Requests identifying as .* could not be measured from networkB: our own egress failed \(error PROXY: our egress proxy refused the tunnel \(HTTP 403\)\)\. This is a limit of the measurement and is never counted against the site\.$/],
    },
  },
  {
    name: 'price-one-agent',
    about: 'Cloudflare pay per crawl charges GPTBot USD 0.01 per request; every other agent is served free.',
    presence: cloudflare.presence,
    edge: [{ who: ['GPTBot'], paths: ['/'], respond: { status: 402, headers: { 'crawler-price': 'USD 0.01', 'content-type': 'text/plain' }, body: 'Payment required: this site charges AI crawlers, see https://{domain}/ai-licensing' } }],
    expect: {
      headline: 'partially-blocked', verdicts: { GPTBot: 'denied', ClaudeBot: 'pass' },
      offers: { GPTBot: [{ scheme: 'pay-per-crawl', price: '0.01', currency: 'USD' }, { scheme: 'pay-per-crawl', price: '0.01', currency: 'USD' }] },
      refusedBy: { GPTBot: [{ party: 'origin' }, { party: 'origin' }] },
      reasons: [/^The site charges GPTBot USD 0\.01 per request \(pay per crawl\); it serves [A-Za-z-]+ and \d+ more free\.$/],
      previewChecks: { 'access.refusal-readable': ['pass', 'payment offer'], 'access.payment-offers': ['pass', 'Cloudflare pay per crawl'] },
    },
  },
  {
    name: 'price-x402',
    about: 'x402: ClaudeBot is asked 0.005 USDC in a v2 PAYMENT-REQUIRED header, CCBot 0.02 USDC in a v1 JSON body; the rest are free.',
    edge: [
      { who: ['ClaudeBot'], paths: ['/'], respond: x402v2() },
      { who: ['CCBot'], paths: ['/'], respond: x402v1() },
    ],
    expect: {
      headline: 'partially-blocked', verdicts: { ClaudeBot: 'denied', CCBot: 'denied', GPTBot: 'pass' },
      offers: {
        ClaudeBot: [{ scheme: 'x402-v2', price: '0.005', currency: 'USDC', payee: PAYEE }, { scheme: 'x402-v2' }],
        CCBot: [{ scheme: 'x402-v1', price: '0.02', currency: 'USDC', payee: PAYEE }, { scheme: 'x402-v1' }],
      },
      reasons: [/^The site charges ClaudeBot 0\.005 USDC \(x402 v2, payable to 0xfa3F.*\); CCBot 0\.02 USDC \(x402 v1, payable to 0xfa3F.*\); it serves [A-Za-z-]+ and \d+ more free\.$/],
      previewChecks: { 'access.refusal-readable': ['pass', 'payment offer'] },
      previewDetails: { 'access.refusal-readable': /^all 4 refusals give an honest status and a reason an agent can read$/ },
    },
  },
  {
    name: 'refusal-readable',
    about: 'Readable refusals: training crawlers get 403 application/problem+json naming the licensing page; user-fetch agents get 429 with Retry-After and a short Markdown note.',
    edge: [
      { who: TRAINING, paths: ['/'], respond: { status: 403, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'https://{domain}/ai-policy', title: 'AI training is not licensed here', status: 403, detail: 'Ask licensing@{domain} for terms.' }) } },
      { who: USER_FETCH, paths: ['/'], respond: { status: 429, headers: { 'content-type': 'text/markdown', 'retry-after': '120' }, body: '# Slow down\n\nAgents may fetch one page a minute. Retry after two minutes, or contact api@{domain} for a key.\n' } },
    ],
    expect: {
      headline: 'partially-blocked', verdicts: { GPTBot: 'denied', 'Claude-User': 'denied', PerplexityBot: 'pass' },
      refusedBy: { GPTBot: [{ party: 'origin', evidence: /^HTTP 403 /, asksToSign: null }, { party: 'origin' }] },
      previewChecks: { 'access.refusal-readable': ['pass', 'Markdown + problem+json'] },
      previewDetails: { 'access.refusal-readable': /^all 12 refusals give an honest status and a reason an agent can read$/ },
    },
  },
];
