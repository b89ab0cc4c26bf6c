import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from './api-app.ts';
import { cannedReport, fakeScanner } from './fixtures.ts';

const TOKEN = 'operator-token-0123456789';
const lead = { name: 'Op Erator', email: 'op@stats-site.com' };

describe('operator statistics', () => {
  let t: TestApp;
  before(async () => {
    let i = 0;
    const headlines = ['open', 'open', 'agent-hostile'] as const;
    const scanner = fakeScanner({ make: (d) => cannedReport(d, { headline: headlines[i++ % 3]! }) });
    t = await scanApiApp({ OPERATOR_TOKEN: TOKEN, RATE_LIMIT_PER_IP: '100/60' }, { scanner });
    // OPERATOR_TOKEN above: the composition root mounts the operator pages.
    for (const d of ['a.stats-site.com', 'b.stats-site.com', 'c.stats-site.com', 'x1.trycloudflare.com']) {
      await request(t.app).post('/scan').send({ domain: d, lead }).expect(200);
    }
  });
  after(() => t.close());

  test('stats refuse a missing or wrong operator token with 401', async () => {
    await request(t.app).get('/internal/stats.json').expect(401);
    await request(t.app).get('/internal/stats.json').set('Authorization', 'Bearer nope').expect(401);
  });

  test('stats JSON counts archived scans by headline, band and vendor, leaving ephemeral hosts out', async () => {
    const res = await request(t.app).get('/internal/stats.json').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    assert.equal(res.body.total, 3);
    assert.equal(res.body.byHeadline.open + res.body.byHeadline['agent-hostile'], 3);
    assert.deepEqual(res.body.byScoreBand, { '70-89': 3 });
    assert.deepEqual(res.body.byVendor, { Cloudflare: 3 });
  });

  test('stats HTML page renders behind the token with a strict CSP', async () => {
    const res = await request(t.app).get('/internal/stats').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    assert.match(res.text, /Operator statistics/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  });

  test('operator can exclude a domain at its owner\'s request; scans of it then get 403', async () => {
    await request(t.app).post('/internal/excluded-domains').send({ domain: 'optout.stats-site.com' }).expect(401);
    await request(t.app).post('/internal/excluded-domains').set('Authorization', `Bearer ${TOKEN}`).send({ domain: 'not a domain' }).expect(400);
    const res = await request(t.app).post('/internal/excluded-domains').set('Authorization', `Bearer ${TOKEN}`).send({ domain: 'https://www.optout.stats-site.com/', reason: 'owner email' }).expect(201);
    assert.equal(res.body.excluded, 'optout.stats-site.com');
    await request(t.app).post('/scan').send({ domain: 'shop.optout.stats-site.com', lead }).expect(403);
  });

  test('stats are off (404) when no operator token is configured', async () => {
    const off = await scanApiApp({}, { scanner: fakeScanner() });
    try {
      await request(off.app).get('/internal/stats.json').expect(404);
    } finally {
      await off.close();
    }
  });
});
