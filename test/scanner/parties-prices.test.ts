// Who refused (parties.ts), what a 402 asks (prices.ts) and whether a refusal can be acted on
// (checks/access.refusal-readable.ts): issue 36 items 4, 5 and 6, table by table.
// Offer fixtures follow the published shapes: x402 v1 body and v2 header as x402-rs/x402-rs
// thinking-req.md prints them; MPP's `request` parameter (base64url JSON) as draft-ryan-httpauth-payment.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { attachParties, partyOf, partyReasons, platformRefusalFixes, refusalReasons } from '../../src/scanner/parties.ts';
import { attachOffers, decodeOffer, priceReason, priceWords } from '../../src/scanner/prices.ts';
import { check, refusalShortfall } from '../../src/scanner/checks/access.refusal-readable.ts';
import { DOMAIN, evidence, fetched, HOME, type Resp } from './fixtures.ts';

const URL_ = `https://${DOMAIN}/`;
const view = (r: Resp, key = 'grid:GPTBot') => fetched(key, URL_, r, { isHome: true });
const control = view({ body: HOME }, 'control:browser');
const CF_1020 = '<!doctype html><html><head><title>Attention Required! | Cloudflare</title></head><body><div id="cf-error-details"><h1>Sorry, you have been blocked</h1><span>Error code: 1020</span></div></body></html>';

describe('the party that said no', () => {
  const cases: Array<[string, Resp, Resp | null, { party: string; vendor?: string; evidence: RegExp; asksToSign?: RegExp } | undefined]> = [
    ['a page passes: no party', { body: HOME }, null, undefined],
    ['a bare 403 from the server', { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' }, null, { party: 'origin', evidence: /^HTTP 403 with no CDN, WAF or platform denial marker$/ }],
    ['Cloudflare\'s 1020 page', { status: 403, headers: { server: 'cloudflare', 'cf-ray': '8f00000000000001-FRA' }, body: CF_1020 }, null, { party: 'edge', vendor: 'cloudflare', evidence: /^HTTP 403, Cloudflare: / }],
    ['a 403 that only passed through Cloudflare', { status: 403, headers: { server: 'cloudflare', 'cf-ray': '8f00000000000001-FRA', 'content-type': 'text/plain' }, body: 'no' }, null, { party: 'origin', evidence: /passed through Cloudflare/ }],
    ['Shopify\'s 429 (x-shopid on the refusal)', { status: 429, headers: { 'x-shopid': '1', server: 'cloudflare', 'cf-ray': '8f00000000000001-FRA' }, body: 'Too many' }, null, { party: 'platform', vendor: 'shopify', evidence: /^HTTP 429 with x-shopid: 1$/ }],
    ['a Zendesk help centre: the header on the browser\'s answer only', { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' }, { body: HOME, headers: { 'x-zendesk-origin-server': 'app5' } }, { party: 'platform', vendor: 'zendesk', evidence: /x-zendesk-origin-server: app5 on the browser's answer/ }],
    ['Squarespace by its Server header', { status: 403, headers: { server: 'Squarespace' }, body: 'no' }, null, { party: 'platform', vendor: 'squarespace', evidence: /server: Squarespace/ }],
    ['a Server header that merely mentions a platform is not one', { status: 403, headers: { server: 'nginx (not Squarespace)' }, body: 'no' }, null, { party: 'origin', evidence: /^HTTP 403/ }],
    ['an edge asking agents to sign', { status: 403, headers: { 'accept-signature': 'sig1=("@authority");tag="web-bot-auth"' }, body: 'sign' }, null, { party: 'origin', evidence: /^HTTP 403/, asksToSign: /^sig1=/ }],
  ];
  for (const [name, cell, ctl, want] of cases) {
    test(name, () => {
      const v = view(cell);
      const got = partyOf(v, ctl ? view(ctl, 'control:browser') : control, []);
      if (!want) return assert.equal(got, undefined);
      assert.ok(got, 'a party');
      assert.equal(got.party, want.party);
      assert.equal(got.vendor, want.vendor);
      assert.match(got.evidence, want.evidence);
      if (want.asksToSign) assert.match(got.asksToSign ?? '', want.asksToSign);
      else assert.equal(got.asksToSign, undefined);
    });
  }

  const errors: Array<[string, string, string, RegExp]> = [
    ['our proxy refused the tunnel (403): our network', 'Proxy response (403) !== 200 when HTTP Tunneling', 'network', /^error PROXY: our egress proxy refused the tunnel \(HTTP 403\)$/],
    ['our proxy could not reach the address (502): the site\'s side', 'Proxy response (502) !== 200 when HTTP Tunneling', 'origin', /^error PROXY from the site's address; the browser control got HTTP 200$/],
    ['no egress configured: our network', 'network networkB has no egress configured', 'network', /^error UNCONFIGURED: /],
    ['a reset for this agent while the browser got the page', 'socket hang up', 'origin', /^error RESET from the site's address; the browser control got HTTP 200$/],
  ];
  for (const [name, message, party, evidenceRe] of errors) {
    test(name, () => {
      const code = name.includes('configured') ? 'UNCONFIGURED' : name.includes('reset') ? 'RESET' : 'PROXY';
      const v = view({ error: code });
      v.record.errorMessage = message;
      const got = partyOf(v, control, []);
      assert.equal(got?.party, party);
      assert.match(got!.evidence, evidenceRe);
    });
  }

  test('Accept-Signature on refusals is said whether or not this scan signs, and once', () => {
    const ev = evidence({ agent: (t) => (t === 'GPTBot' ? { status: 403, headers: { 'accept-signature': 'sig1=("@authority")' }, body: 'sign' } : undefined) });
    attachParties(ev);
    const unsigned = refusalReasons(ev.rows, { headline: 'partially-blocked', reasons: [] }, false);
    assert.ok(unsigned.includes('The refusals carry Accept-Signature (sig1=("@authority")): the edge asks agents to sign their requests (Web Bot Auth); this scan\'s own requests were not signed.'), unsigned.join('\n'));
    const signed = refusalReasons(ev.rows, { headline: 'partially-blocked', reasons: [] }, true);
    assert.ok(signed.includes('The refusals carry Accept-Signature (sig1=("@authority")): the edge asks agents to sign their requests (Web Bot Auth).'), signed.join('\n'));
    // The signed-traffic comparison (causes.ts) already named it: not twice.
    const again = refusalReasons(ev.rows, { headline: 'partially-blocked', reasons: ['The edge asks agents to sign their requests (Accept-Signature: sig1=("@authority")).'] }, true);
    assert.ok(!again.some((r) => r.startsWith('The refusals carry Accept-Signature')));
    // Nothing decided: only our own network's failures are worth a sentence.
    assert.deepEqual(refusalReasons(ev.rows, { headline: 'unknown', reasons: [] }, false), []);
  });

  test('a transport failure behind a known edge names the edge', () => {
    const got = partyOf(view({ error: 'RESET' }), control, ['cloudflare']);
    assert.deepEqual([got?.party, got?.vendor], ['edge', 'cloudflare']);
  });

  test('rows get refusedBy, reasons name the party, platform refusals bring the platform\'s fix, our network is never held against the site', () => {
    const ev = evidence({ agent: (t, n) => (t === 'Claude-User' ? { status: 429, headers: { 'x-shopid': '7' }, body: 'slow down' } : t === 'GPTBot' && n === 'networkB' ? { error: 'BUDGET' } : undefined) });
    attachParties(ev);
    const claude = ev.rows.find((r) => r.agent.token === 'Claude-User')!;
    assert.deepEqual(Object.keys(claude.entry.refusedBy ?? {}), ['networkA', 'networkB']);
    assert.equal(ev.rows.find((r) => r.agent.token === 'ChatGPT-User')!.entry.refusedBy, undefined);
    const gpt = ev.rows.find((r) => r.agent.token === 'GPTBot')!;
    assert.deepEqual(gpt.entry.refusedBy, { networkB: { party: 'network', evidence: 'error BUDGET: the scan\'s request budget was spent before it was sent' } });
    const reasons = partyReasons(ev.rows, false);
    assert.ok(reasons.includes('Requests identifying as Claude-User from networkA and networkB were refused by the Shopify platform\'s bot rules, not by your site (evidence: HTTP 429 with x-shopid: 7). Shopify documents no owner setting for these rules: ask Shopify support (https://help.shopify.com/en/questions).'), reasons.join('\n'));
    assert.ok(reasons.some((r) => /^Requests identifying as GPTBot could not be measured from networkB: our own egress failed .* never counted against the site\.$/.test(r)), reasons.join('\n'));
    const fixes = platformRefusalFixes(ev.rows);
    assert.deepEqual(fixes.map((f) => [f.checkId, f.platform, f.docUrl]), [['access.user-agents', 'shopify', 'https://help.shopify.com/en/questions']]);
  });
});

describe('prices per agent', () => {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
  const accepts = (a: Record<string, unknown>) => [{ scheme: 'exact', network: 'eip155:8453', payTo: '0xpayee', asset: '0xusdc', ...a }];
  const cases: Array<[string, Resp, Record<string, unknown> | undefined]> = [
    ['a page: no offer', { body: HOME }, undefined],
    ['a 403: no offer', { status: 403, body: 'no' }, undefined],
    ['pay per crawl', { status: 402, headers: { 'crawler-price': 'USD 0.01' }, body: '' }, { scheme: 'pay-per-crawl', price: '0.01', currency: 'USD' }],
    ['pay per crawl in another form', { status: 402, headers: { 'crawler-price': '0.01 dollars' }, body: '' }, { scheme: 'pay-per-crawl', summary: 'pay per crawl: 0.01 dollars' }],
    ['x402 v2 in USDC', { status: 402, headers: { 'payment-required': b64({ x402Version: 2, accepts: accepts({ amount: '10000', extra: { name: 'USDC' } }) }) }, body: '' }, { scheme: 'x402-v2', price: '0.01', currency: 'USDC', payee: '0xpayee', paymentNetwork: 'eip155:8453' }],
    ['x402 v2 in an asset of unknown decimals keeps the atomic amount', { status: 402, headers: { 'payment-required': b64({ x402Version: 2, accepts: accepts({ amount: '7' }) }) }, body: '' }, { scheme: 'x402-v2', price: '7', currency: '0xusdc', atomic: true, payee: '0xpayee', paymentNetwork: 'eip155:8453' }],
    ['x402 v1 in the body', { status: 402, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x402Version: 1, accepts: accepts({ maxAmountRequired: '1500000', extra: { name: 'usdc' } }) }) }, { scheme: 'x402-v1', price: '1.5', currency: 'USDC', payee: '0xpayee', paymentNetwork: 'eip155:8453' }],
    ['an x402 header that is not base64 JSON', { status: 402, headers: { 'payment-required': '%%%' }, body: '' }, { scheme: 'x402-v2', summary: 'x402: PAYMENT-REQUIRED header that is not base64 JSON' }],
    ['MPP with its request', { status: 402, headers: { 'www-authenticate': `Payment id="abc", method="tempo", intent="charge", request="${Buffer.from(JSON.stringify({ amount: '0.25', currency: 'usd', recipient: 'acct_1' })).toString('base64url')}"` }, body: '' }, { scheme: 'mpp', price: '0.25', currency: 'usd', payee: 'acct_1' }],
    ['a bare 402', { status: 402, body: 'pay' }, { scheme: 'unspecified', summary: 'payment required, no offer an agent can read' }],
  ];
  for (const [name, r, want] of cases) test(name, () => assert.deepEqual(decodeOffer(view(r)), want));

  test('priceWords', () => {
    assert.equal(priceWords({ scheme: 'pay-per-crawl', price: '0.01', currency: 'USD' }), 'USD 0.01 per request (pay per crawl)');
    assert.equal(priceWords({ scheme: 'x402-v2', price: '0.01', currency: 'USDC', payee: '0xp' }), '0.01 USDC (x402 v2, payable to 0xp)');
    assert.equal(priceWords({ scheme: 'x402-v2', price: '7', currency: '0xusdc', atomic: true }), '7 atomic units of 0xusdc (x402 v2)');
    assert.equal(priceWords({ scheme: 'unspecified', summary: 'payment required, no offer an agent can read' }), 'an unstated price (payment required, no offer an agent can read)');
  });

  test('one agent charged, the rest free, in one sentence', () => {
    const ev = evidence({ agent: (t) => (t === 'GPTBot' ? { status: 402, headers: { 'crawler-price': 'USD 0.01' }, body: '' } : undefined) });
    attachOffers(ev.rows, ev.cells);
    assert.deepEqual(ev.rows.find((r) => r.agent.token === 'GPTBot')!.entry.offers?.networkB, { scheme: 'pay-per-crawl', price: '0.01', currency: 'USD' });
    const free = ev.rows.filter((r) => !r.agent.tokenOnly && !r.agent.contextOnly && r.agent.token !== 'GPTBot').length;
    assert.equal(priceReason(ev.rows), `The site charges GPTBot USD 0.01 per request (pay per crawl); it serves OAI-SearchBot and ${free - 1} more free.`);
  });

  test('no 402, no sentence', () => assert.equal(priceReason(evidence().rows), null));
});

describe('access.refusal-readable', () => {
  const cases: Array<[string, Resp, RegExp | null]> = [
    ['403 with a JSON reason', { status: 403, headers: { 'content-type': 'application/json' }, body: '{"error":"ai training not licensed"}' }, null],
    ['403 with problem+json', { status: 403, headers: { 'content-type': 'application/problem+json' }, body: '{"title":"no"}' }, null],
    ['429 with Retry-After and a short text saying what to do', { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '30' }, body: 'Too many requests: retry in 30 seconds.' }, null],
    ['403 with an HTML page linking the AI policy', { status: 403, body: '<p>Blocked. See <a href="/ai-policy">our AI policy</a>.</p>' }, null],
    ['403 with a Link rel=license header', { status: 403, headers: { link: '</license>; rel="license"' }, body: '<p>no</p>' }, null],
    ['402 with a readable offer', { status: 402, headers: { 'crawler-price': 'USD 0.01' }, body: '' }, null],
    ['a bare 403 text', { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' }, /^text\/plain body of 9 bytes with no machine-readable reason and no policy link$/],
    ['an HTML block page', { status: 403, body: CF_1020 }, /^text\/html body of \d+ bytes/],
    ['429 without Retry-After', { status: 429, headers: { 'content-type': 'application/json' }, body: '{"error":"slow"}' }, /^no Retry-After on 429$/],
    ['503 with Retry-After is still not an honest refusal', { status: 503, headers: { 'retry-after': '5', 'content-type': 'application/json' }, body: '{"e":1}' }, /^status 503 is not 401, 402, 403 or 429$/],
    ['503 without Retry-After', { status: 503, headers: { 'content-type': 'application/json' }, body: '{"e":1}' }, /^status 503 is not 401, 402, 403 or 429; no Retry-After on 503$/],
    ['a 200 refusal', { status: 200, headers: { 'content-type': 'text/plain' }, body: 'Access denied. Contact us for a licence.' }, /^refuses with 200$/],
    ['a long text refusal is not short enough', { status: 403, headers: { 'content-type': 'text/plain' }, body: `Contact us. ${'x'.repeat(5000)}` }, /no machine-readable reason/],
    ['unclosed anchors over the whole body are no policy link (bounded matching)', { status: 403, body: '<a '.repeat(21000) }, /no machine-readable reason and no policy link/],
    ['an anchor whose href names the licence, in an odd layout', { status: 403, body: '<p>No.</p><a  class="x"  href = \'/licensing\' ><b>terms</b></a>' }, null],
    ['an empty JSON object says nothing', { status: 403, headers: { 'content-type': 'application/json' }, body: '{}' }, /no machine-readable reason/],
  ];
  for (const [name, r, want] of cases) {
    test(name, () => {
      const got = refusalShortfall(view(r));
      if (want === null) assert.equal(got, null);
      else assert.match(got ?? '', want);
    });
  }

  test('a refusal over 64 KiB, whose body the scan does not keep, is too long to be readable', () => {
    const v = view({ status: 403, headers: { 'content-type': 'application/json' }, body: `{"a":"${'x'.repeat(70 * 1024)}"}` });
    v.body = '';
    assert.match(refusalShortfall(v) ?? '', /^a body of \d+ bytes, too long to be a readable refusal$/);
  });

  test('not applicable when no agent is refused', () => assert.equal(check.evaluate(evidence()).status, 'inconclusive'));

  test('partial credit and the failing refusals named', () => {
    const ev = evidence({ agent: (t) => (t === 'GPTBot' ? { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' } : t === 'ClaudeBot' ? { status: 403, headers: { 'content-type': 'application/json' }, body: '{"error":"no"}' } : undefined) });
    const out = check.evaluate(ev);
    assert.equal(out.status, 'pass');
    assert.equal(out.credit, 500);
    assert.equal(out.detail, '2 of 4 refusals an agent cannot act on (GPTBot on networkA, GPTBot on networkB: text/plain body of 9 bytes with no machine-readable reason and no policy link)');
  });
});
