import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { scanApiApp } from './api-app.ts';
import { fakeScanner } from './fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@ip-site.com' };

describe('per-IP limit and TRUST_PROXY', () => {
  test('without TRUST_PROXY, X-Forwarded-For is ignored and one socket address shares one budget', async () => {
    const t = await scanApiApp({ RATE_LIMIT_PER_IP: '2/1800' }, { scanner: fakeScanner() });
    try {
      for (let i = 0; i < 2; i++) await request(t.app).post('/scan').set('X-Forwarded-For', `203.0.113.${i}`).send({ domain: `n${i}.ip-site.com`, lead }).expect(200).expect(conforms);
      const res = await request(t.app).post('/scan').set('X-Forwarded-For', '203.0.113.77').send({ domain: 'n9.ip-site.com', lead }).expect(429).expect(conforms);
      assert.match(res.body.error, /from your address/);
    } finally {
      await t.close();
    }
  });

  test('with TRUST_PROXY, clients behind the load balancer get budgets of their own', async () => {
    const t = await scanApiApp({ RATE_LIMIT_PER_IP: '2/1800', TRUST_PROXY: 'true' }, { scanner: fakeScanner() });
    try {
      for (let i = 0; i < 2; i++) await request(t.app).post('/scan').set('X-Forwarded-For', '203.0.113.1').send({ domain: `p${i}.ip-site.com`, lead }).expect(200);
      await request(t.app).post('/scan').set('X-Forwarded-For', '203.0.113.1').send({ domain: 'p2.ip-site.com', lead }).expect(429).expect(conforms);
      await request(t.app).post('/scan').set('X-Forwarded-For', '203.0.113.2').send({ domain: 'p3.ip-site.com', lead }).expect(200).expect(conforms);
    } finally {
      await t.close();
    }
  });
});
