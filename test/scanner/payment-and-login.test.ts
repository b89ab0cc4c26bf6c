// HTTP 402 offers are the edge asking for a credential (auth), decoded into notes and reasons;
// a sign-in wall is judged on where the redirects end, not on a hop they pass through.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyResponse, isLoginRedirect } from '../../src/scanner/classify.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { paymentOffer } from '../../src/scanner/payment.ts';
import { startWorld, type World } from '../world/index.ts';

const view = (status: number, headers: Record<string, string> = {}, body = 'x') =>
  ({ ok: true as const, status, headers, setCookieNames: [], body, bodyBytes: Buffer.byteLength(body), redirects: [] as string[] });

describe('HTTP 402 offers', () => {
  const x402 = Buffer.from(JSON.stringify({ x402Version: 2, accepts: [{ scheme: 'exact', network: 'eip155:8453', asset: 'USDC', amount: '10000', payTo: '0xabc' }] })).toString('base64');
  const table: Array<[string, number, Record<string, string>, string]> = [
    ['pay per crawl', 402, { 'crawler-price': 'USD 0.01' }, 'pay per crawl: USD 0.01'],
    ['x402 v2', 402, { 'payment-required': x402 }, 'x402 v2: exact 10000 USDC on eip155:8453'],
    ['x402 that is not base64 JSON', 402, { 'payment-required': '%%%' }, 'x402: PAYMENT-REQUIRED header that is not base64 JSON'],
    ['MPP', 402, { 'www-authenticate': 'Payment id="a", realm="example.com", method="tempo", intent="charge", request="e30"' }, 'MPP Payment challenge: method tempo, intent charge, realm example.com'],
    ['bare 402', 402, {}, 'payment required, no offer in the headers'],
    ['402 with crawler-error', 402, { 'crawler-error': 'MissingCrawlerPrice' }, 'payment required (crawler-error: MissingCrawlerPrice)'],
  ];
  for (const [name, status, headers, summary] of table) {
    test(`402 ${name} is auth with the offer "${summary}" in the markers`, () => {
      assert.equal(paymentOffer(status, headers)?.summary, summary);
      const c = classifyResponse(view(status, headers));
      assert.equal(c.outcome, 'auth');
      assert.ok(c.markers.includes(`payment offer: ${summary}`), c.markers.join('; '));
    });
  }

  test('a 402 is never origin-error, and a 200 that mentions a price header is not a payment offer', () => {
    assert.notEqual(classifyResponse(view(402, { 'crawler-price': 'USD 1' })).outcome, 'origin-error');
    assert.equal(paymentOffer(200, {}), undefined);
  });
});

describe('sign-in walls judged on the final host', () => {
  test('a redirect that ends on a login host is auth', () => {
    assert.equal(isLoginRedirect(['https://login.example.com/?next=/'], 'https://login.example.com/?next=/'), true);
    assert.equal(classifyResponse({ ...view(200), redirects: ['https://sso.example.com/start'], finalUrl: 'https://sso.example.com/start' }).outcome, 'auth');
  });

  test('a real page reached through an SSO hop is pass', () => {
    const hops = ['https://sso.example.com/authorize?client=x', 'https://www.example.com/'];
    assert.equal(isLoginRedirect(hops, 'https://www.example.com/'), false);
    assert.equal(classifyResponse({ ...view(200, {}, '<html><body>Welcome</body></html>'), redirects: hops, finalUrl: 'https://www.example.com/' }).outcome, 'pass');
  });

  test('a /login path on the site\'s own host is not judged by its path', () => {
    assert.equal(isLoginRedirect(['https://www.example.com/login'], 'https://www.example.com/login'), false);
  });

  test('Vercel deployment protection, whose login lives on vercel.com, is auth', () => {
    assert.equal(isLoginRedirect(['https://vercel.com/login?next=x'], 'https://vercel.com/login?next=x'), true);
  });

  test('no redirect at all is never a sign-in wall', () => {
    assert.equal(isLoginRedirect([], 'https://login.example.com/'), false);
  });
});

describe('pay per crawl in a world scan', () => {
  let world: World;
  before(async () => { world = await startWorld(); });
  after(async () => { await world.stop(); });

  test('the 402 offer reaches the matrix notes and the headline reasons', async () => {
    const scanner = createScanner({ networks: world.egress({}), deadlineMs: 15_000, probeTimeoutMs: 5_000, now: () => new Date('2026-11-22T00:00:00Z') });
    const { report } = await scanner.scan(world.domain('cf-pay-per-crawl'));
    const gpt = report.matrix.find((m) => m.ua === 'GPTBot')!;
    assert.deepEqual(gpt.edgeDoes, { networkA: 'auth', networkB: 'auth' });
    assert.ok(gpt.notes.some((n) => n.endsWith('; payment offer: pay per crawl: USD 0.01')), gpt.notes.join('\n'));
    assert.ok(report.reasons.some((r) => /asked to pay \(offer: pay per crawl: USD 0\.01\)/.test(r)), report.reasons.join('\n'));
  });
});
