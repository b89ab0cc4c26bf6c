// Nothing a caller sends may crash the scan endpoints: random bodies get a declared status
// with a contract-conforming body, never a 500.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from './api-app.ts';
import { fakeScanner } from './fixtures.ts';

const leadArb = fc.oneof(
  fc.record({ name: fc.string({ maxLength: 130 }), email: fc.oneof(fc.emailAddress(), fc.string()) }, { requiredKeys: [] }),
  fc.record({ name: fc.constant('Ada Lovelace'), email: fc.constant('ada@fuzz-site.com'), phone: fc.oneof(fc.constant(null), fc.string({ maxLength: 30 })), role: fc.oneof(fc.constant(null), fc.string({ maxLength: 90 })) }),
  fc.anything(),
);
const domainArb = fc.oneof(fc.domain(), fc.webUrl(), fc.ipV4(), fc.ipV6(), fc.string(), fc.anything());

describe('fuzzed bodies', () => {
  let t: TestApp;
  before(async () => { t = await scanApiApp({ RATE_LIMIT_PER_IP: '100000/60', RATE_LIMIT_PER_DOMAIN: '100000/60' }, { scanner: fakeScanner() }); });
  after(() => t.close());

  test('POST /scan answers every random body with a declared status and never 500', async () => {
    await fc.assert(fc.asyncProperty(
      fc.record({ domain: domainArb, lead: leadArb, fresh: fc.anything(), profile: fc.oneof(fc.constantFrom('general', 'docs', 'bogus'), fc.anything()) }, { requiredKeys: [] }),
      async (body) => {
        const res = await request(t.app).post('/scan').send(body as object);
        assert.ok([200, 400, 403, 413, 429].includes(res.status), `status ${res.status}: ${res.text}`);
        conforms(res as never);
      },
    ), { seed: 4242, numRuns: 150 });
  });

  test('POST /r/{scanId}/cli-vantage answers every random body with a declared status and never 500', async () => {
    const scan = await request(t.app).post('/scan').send({ domain: 'fuzz-site.com', lead: { name: 'Ada Lovelace', email: 'ada@fuzz-site.com' } }).expect(200);
    const obsArb = fc.array(fc.oneof(
      fc.record({ key: fc.constantFrom('control:browser', 'grid:GPTBot', 'grid:x'), status: fc.integer({ min: -5, max: 1200 }), bodyBytes: fc.integer(), timingMs: fc.integer(), error: fc.string() }, { requiredKeys: ['key', 'status'] }),
      fc.anything(),
    ), { maxLength: 110 });
    await fc.assert(fc.asyncProperty(
      fc.record({ domain: fc.oneof(fc.constant('fuzz-site.com'), fc.string()), uploadToken: fc.oneof(fc.constant('wrong'), fc.string(), fc.anything()), observedAt: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string()), observations: obsArb }, { requiredKeys: [] }),
      async (body) => {
        const res = await request(t.app).post(`/r/${scan.body.scanId}/cli-vantage`).send(body as object);
        assert.ok([400, 403].includes(res.status), `status ${res.status}: ${res.text}`);
        conforms(res as never);
      },
    ), { seed: 99, numRuns: 150 });
  });
});
