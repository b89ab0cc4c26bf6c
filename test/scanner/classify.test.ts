// Edge outcome per response, rule by rule in verdicts.md's first-match order, over recorded vendor responses.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyResponse, type ClassifyInput, type EdgeOutcome } from '../../src/scanner/classify.ts';
import { akamai, awsWaf, cloudflare, datadome, fastly, human, imperva, sucuri, vercel, type EdgeResponse } from '../world/vendors.ts';

function view(r: EdgeResponse, presence: Record<string, string> = {}, redirects: string[] = []): ClassifyInput {
  const body = r.body ?? '';
  const cookies = (r.cookies ?? []).map((c) => c.split('=')[0]!);
  return { ok: true, status: r.status, headers: { ...presence, ...(r.headers ?? {}) }, setCookieNames: cookies, body, bodyBytes: Buffer.byteLength(body), redirects };
}
const page = (status: number, body = '<html><title>Shop</title><p>Welcome to the shop, here are our products.</p></html>', headers: Record<string, string> = {}): EdgeResponse => ({ status, body, headers });

const table: Array<[string, ClassifyInput, EdgeOutcome, string[]]> = [
  // 1. transport-error / unprobed
  ['DNS failure', { ok: false, errorCode: 'DNS_NXDOMAIN' }, 'transport-error', []],
  ['timeout', { ok: false, errorCode: 'TIMEOUT' }, 'transport-error', []],
  ['redirect loop', { ok: false, errorCode: 'REDIRECT_LOOP' }, 'transport-error', []],
  ['TLS failure', { ok: false, errorCode: 'TLS' }, 'transport-error', []],
  ['network not configured', { ok: false, errorCode: 'UNCONFIGURED' }, 'unprobed', []],
  ['deadline before start', { ok: false, errorCode: 'DEADLINE' }, 'unprobed', []],
  // 2. challenge, whatever the status
  ['Cloudflare cf-mitigated 403', view(cloudflare.challenge(), cloudflare.presence), 'challenge', ['cloudflare']],
  ['Cloudflare old IUAM 503', view(cloudflare.challenge(503), cloudflare.presence), 'challenge', ['cloudflare']],
  ['Cloudflare challenge body with 200', view(cloudflare.challenge200()), 'challenge', ['cloudflare']],
  ['Akamai sec-if-cpt with 200', view(akamai.challenge200(), akamai.presence), 'challenge', ['akamai']],
  ['Imperva interstitial with 200', view(imperva.interstitial200(), imperva.presence), 'challenge', ['imperva']],
  ['DataDome captcha 403', view(datadome.challenge()), 'challenge', ['datadome']],
  ['HUMAN Press & Hold', view(human.challenge()), 'challenge', ['human']],
  ['AWS WAF challenge 202', view(awsWaf.challenge(), awsWaf.presence), 'challenge', ['aws-waf']],
  ['AWS WAF captcha 405', view(awsWaf.captcha()), 'challenge', ['aws-waf']],
  ['Vercel checkpoint 429 (challenge beats rate-limit)', view(vercel.challenge(), vercel.presence), 'challenge', ['vercel']],
  // 3. rate-limited
  ['plain 429', view(page(429, 'Too many requests')), 'rate-limited', []],
  ['Cloudflare 1015', view(cloudflare.rateLimit1015(), cloudflare.presence), 'rate-limited', ['cloudflare']],
  ['Fastly 429', view(fastly.rateLimit(), fastly.presence), 'rate-limited', ['fastly']],
  // 4. block
  ['plain 403', view(page(403, 'Forbidden')), 'block', []],
  ['406', view(page(406, 'no')), 'block', []],
  ['451', view(page(451, 'legal')), 'block', []],
  ['Cloudflare 1020', view(cloudflare.block1020(), cloudflare.presence), 'block', ['cloudflare']],
  ['Akamai Reference #18', view(akamai.block(), akamai.presence), 'block', ['akamai']],
  ['Imperva incident ID', view(imperva.block(), imperva.presence), 'block', ['imperva']],
  ['HUMAN automation deny', view(human.block()), 'block', ['human']],
  ['CloudFront 403', view(awsWaf.block(), awsWaf.presence), 'block', ['aws-waf']],
  ['Vercel deny', view(vercel.deny(), vercel.presence), 'block', ['vercel']],
  ['Fastly NGWAF 406', view(fastly.block406(), fastly.presence), 'block', ['fastly']],
  ['Sucuri x-sucuri-block', view(sucuri.block(), sucuri.presence), 'block', ['sucuri']],
  ['Sucuri deny page with 200', view(sucuri.block200(), sucuri.presence), 'block', ['sucuri']],
  // 5. auth
  ['401', view(page(401, 'auth')), 'auth', []],
  ['407', view(page(407, 'proxy auth')), 'auth', []],
  ['redirect to a login host', view(page(200), {}, ['https://login.shop-fixtures.com/?next=/']), 'auth', []],
  ['redirect to vercel.com/login', view(page(200), {}, ['https://vercel.com/login?next=x']), 'auth', []],
  // 6. origin-error
  ['500', view(page(500, 'oops')), 'origin-error', []],
  ['502 behind Cloudflare without mitigation markers', view(page(502, 'bad gateway'), cloudflare.presence), 'origin-error', ['cloudflare']],
  ['404 on the home page', view(page(404, 'nope')), 'origin-error', []],
  ['410 on the home page', view(page(410, 'gone')), 'origin-error', []],
  ['200 with an empty body', view(page(200, '')), 'origin-error', []],
  // 7. pass (presence is not a block)
  ['200 page', view(page(200)), 'pass', []],
  ['200 page behind Cloudflare', view(page(200), cloudflare.presence), 'pass', ['cloudflare']],
  ['200 page behind Akamai with Bot Manager cookies', { ...view(page(200), akamai.presence), setCookieNames: ['_abck', 'bm_sz'] } as unknown as ClassifyInput, 'pass', ['akamai']],
  ['304', view(page(304, '')), 'pass', []],
  ['a same-site redirect to /en/ then 200', view(page(200), {}, ['https://shop-fixtures.com/en/']), 'pass', []],
  ['an ordinary Cloudflare page with the Bot Management jsd script', view(page(200, `<html><title>Shop</title><p>${'Products. '.repeat(50)}</p><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script></html>`), cloudflare.presence), 'pass', ['cloudflare']],
  ['a long article quoting "Press & Hold" is not a HUMAN interstitial', view(page(200, `<html><title>Blog</title><p>Bots meet a Press & Hold button. ${'More text. '.repeat(6000)}</p></html>`)), 'pass', []],
  ['a CSP header naming Cloudflare is no evidence', view(page(200, undefined, { 'content-security-policy': "script-src challenges.cloudflare.com" })), 'pass', []],
];

describe('classifier: first match wins, vendors attributed apart', () => {
  for (const [name, input, outcome, vendors] of table) {
    test(`classify ${name} -> ${outcome}`, () => {
      const got = classifyResponse(input, true);
      assert.equal(got.outcome, outcome, got.markers.join('; '));
      assert.deepEqual(got.vendors, vendors);
    });
  }
  test('classify: 404 on a non-home resource is not an origin error (the edge let it through)', () => {
    assert.equal(classifyResponse(view(page(404, 'nope')), false).outcome, 'pass');
  });
});
