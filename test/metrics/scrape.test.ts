// GET /metrics against the contract (200, 401), read by a real Prometheus text parser
// (parse-prometheus-text-format, prom2json's format), on the real app: SQLite, the embedded job
// engine, the real batch service, the real outbox mailer (writing .eml files), the real webhook
// delivery service (its attempts fail: networkA's proxy is a closed port), and a fake scan
// engine. The counters move as scans, batch items, mails and delivery attempts happen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import parse, { type Family } from 'parse-prometheus-text-format';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';
import { until } from '../watches/fakes.ts';

const TOKEN = 'operator-token-for-metrics-0123';
const lead = { name: 'Ada Lovelace', email: 'ada@metrics-site.com' };

function value(families: Family[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  if (!family) return Number.NaN;
  const sample = family.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!sample) return 0;
  return Number(sample.value ?? sample.count);
}

describe('GET /metrics', () => {
  let t: TestApp;
  let mailDir: string;
  let key: string;
  const scrape = async () => parse((await request(t.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200).expect(conforms)).text);

  before(async () => {
    mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-metrics-mail-'));
    t = await testApp({ LOG_LEVEL: 'silent', OPERATOR_TOKEN: TOKEN, MAIL_DIR: mailDir, COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '100/60', RATE_LIMIT_PER_IP: '100/60', WEBHOOK_BACKOFF_MS: '10' }, {}, {
      scanner: fakeScanner(), scans: { resolve: fakeResolver() }, mailer: true,
    });
    key = (await t.services.keys.create('Metrics', 100)).key;
  });
  after(async () => {
    await t?.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  test('401 without the operator token, with a wrong one, with a partner key; and with no OPERATOR_TOKEN set at all', async () => {
    for (const auth of [undefined, 'Bearer wrong-token-wrong-token', `Bearer ${key}`, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`]) {
      const r = request(t.app).get('/metrics');
      const res = await (auth ? r.set('Authorization', auth) : r).expect(401).expect(conforms);
      assert.match(String(res.headers['www-authenticate']), /^Bearer realm="operator"/);
      assert.ok(!res.text.includes('agent_readiness_'), 'no metric leaks into a refusal');
    }
    const off = await testApp({ LOG_LEVEL: 'silent' });
    try {
      const res = await request(off.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(401).expect(conforms);
      assert.match(res.body.hint, /set OPERATOR_TOKEN/);
    } finally {
      await off.close();
    }
  });

  test('200: every documented family, the default process metrics, job gauges from the engine', async () => {
    const families = await scrape();
    const names = new Set(families.map((f) => f.name));
    for (const n of ['agent_readiness_scans_total', 'agent_readiness_scan_duration_seconds', 'agent_readiness_batch_items', 'agent_readiness_jobs_waiting', 'agent_readiness_jobs_active',
      'agent_readiness_jobs_delayed', 'agent_readiness_webhook_deliveries_total', 'agent_readiness_mail_total', 'agent_readiness_job_engine_up',
      'process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      assert.ok(names.has(n), `${n} is exposed`);
    }
    assert.equal(families.find((f) => f.name === 'agent_readiness_scan_duration_seconds')!.type, 'HISTOGRAM');
    assert.equal(value(families, 'agent_readiness_job_engine_up'), 1);
    const queues = families.find((f) => f.name === 'agent_readiness_jobs_waiting')!.metrics.map((m) => m.labels?.queue).sort();
    assert.deepEqual(queues, ['batch-items', 'change-prunes', 'watch-runs', 'watch-sweeps', 'webhook-deliveries']);
  });

  test('the counters move as scans, batch items, mails and deliveries happen; labels stay bounded', async () => {
    const before = await scrape();
    const scans = () => value(before, 'agent_readiness_scans_total', { kind: 'site', headline: 'partially-blocked' });
    await request(t.app).post('/scan').send({ domain: 'one.metrics-site.com', lead }).expect(200);
    const batch = await request(t.app).post('/batches').set('Authorization', `Bearer ${key}`).type('text/plain').send('two.metrics-site.com\nthree.metrics-site.com\n').expect(202);
    await until(async () => (await request(t.app).get(`/batches/${batch.body.batchId}`).set('Authorization', `Bearer ${key}`)).body.status === 'done', 'the batch done');
    // A watch without a key: its confirmation mail goes out through the outbox (an .eml file here).
    await request(t.app).post('/watches').send({ domain: 'four.metrics-site.com', lead, every: 'week' }).expect(202);
    // A key's watch with a webhook: its test event is attempted once (and fails: no way out).
    const watch = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`)
      .send({ domain: 'five.metrics-site.com', lead, every: 'week', notify: { email: false, webhookUrl: 'https://hooks.metrics-site.com/in' } }).expect(202);
    await request(t.app).post(`/watches/${watch.body.watchId}/test`).set('Authorization', `Bearer ${key}`).expect(202);

    let after: Family[] = [];
    await until(async () => {
      after = await scrape();
      return value(after, 'agent_readiness_mail_total', { result: 'sent' }) >= 1 && value(after, 'agent_readiness_webhook_deliveries_total', { result: 'given-up' }) >= 1;
    }, 'a mail sent and a delivery attempted');
    // The scan of the form, the batch's two and the key's watch's first run (the other watch waits for its confirmation).
    assert.ok(value(after, 'agent_readiness_scans_total', { kind: 'site', headline: 'partially-blocked' }) - scans() >= 3);
    assert.ok(value(after, 'agent_readiness_scan_duration_seconds') - value(before, 'agent_readiness_scan_duration_seconds') >= 3, 'the histogram counts them');
    assert.equal(value(after, 'agent_readiness_batch_items', { state: 'queued' }) - value(before, 'agent_readiness_batch_items', { state: 'queued' }), 2);
    assert.equal(value(after, 'agent_readiness_batch_items', { state: 'done' }) - value(before, 'agent_readiness_batch_items', { state: 'done' }), 2);
    assert.equal(fs.readdirSync(mailDir).filter((f) => f.endsWith('.eml')).length, value(after, 'agent_readiness_mail_total', { result: 'sent' }), 'each sent mail is a file');

    // No label value is a domain, an id or an email.
    for (const f of after.filter((x) => x.name.startsWith('agent_readiness_'))) {
      for (const m of f.metrics) {
        for (const [k, v] of Object.entries(m.labels ?? {})) {
          assert.match(v, /^[a-z-]+$/, `${f.name}{${k}="${v}"}`);
        }
      }
    }
    assert.ok(!/metrics-site|ada@|[0-9a-f]{8}-[0-9a-f]{4}-/.test((await request(t.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text));
  });
});
