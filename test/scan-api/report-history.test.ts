// GET /r/{scanId} of a site scan: the page carries the domain's earlier archived scans (never
// a link to them), and ?format= reaches either form from a plain link.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { archiveScan, type ScanRow } from '../../src/storage/queries/archiveScan.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from './api-app.ts';
import { cannedReport, evidenceFor, fakeScanner } from './fixtures.ts';

const domain = 'history-site.com';
const ids = ['aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000003'];

function row(id: string, scannedAt: string, score: number, headline: 'open' | 'agent-hostile'): ScanRow {
  const base = cannedReport(domain, { scannedAt, headline });
  const report = { ...base, scanId: id, outreachEligible: false, score: { ...base.score, value: score, display: `${score}` } };
  return {
    id, kind: 'site', domain, headline, score, report: JSON.stringify(report), evidence: JSON.stringify(evidenceFor(domain)), scanned_at: scannedAt,
    lead_name: 'Ada', lead_email: 'ada@history-site.com', lead_phone: null, lead_role: null, upload_token_hash: null,
  };
}

describe('report page history and format', () => {
  let t: TestApp;
  before(async () => {
    t = await scanApiApp({}, { scanner: fakeScanner() });
    await archiveScan(t.ctx.db, row(ids[0]!, '2026-09-01T08:00:00.000Z', 31, 'agent-hostile'), []);
    await archiveScan(t.ctx.db, row(ids[1]!, '2026-10-01T08:00:00.000Z', 77, 'open'), []);
    await archiveScan(t.ctx.db, row(ids[2]!, '2026-11-01T08:00:00.000Z', 88, 'open'), []);
  });
  after(async () => { await t.close(); });

  test('a site report page shows the earlier scans of its domain, not later ones, and links to none of them', async () => {
    const res = await request(t.app).get(`/r/${ids[1]}`).set('Accept', 'text/html').expect(200).expect(conforms);
    const hist = res.text.slice(res.text.indexOf('id="history"'), res.text.indexOf('id="method"'));
    assert.ok(hist.includes('<td>31</td>'), 'the earlier scan');
    assert.ok(hist.includes('<td>77</td>'), 'this scan');
    assert.ok(!hist.includes('<td>88</td>'), 'a later scan is not history of this one');
    assert.ok(!res.text.includes(ids[0]!) && !res.text.includes(ids[2]!), 'no other report id anywhere on the page');
    const first = await request(t.app).get(`/r/${ids[0]}`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(first.text, /first archived scan of history-site\.com/);
  });

  test('?format=json gives the JSON report to a browser and ?format=html the page to a JSON client', async () => {
    const json = await request(t.app).get(`/r/${ids[2]}?format=json`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(String(json.headers['content-type']), /application\/json/);
    assert.equal(json.body.scanId, ids[2]);
    const page = await request(t.app).get(`/r/${ids[2]}?format=html`).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(page.text, /Fix first/);
    const missing = await request(t.app).get('/r/00000000-0000-4000-8000-000000000000?format=json').set('Accept', 'text/html').expect(404).expect(conforms);
    assert.match(String(missing.headers['content-type']), /application\/json/);
  });

  test('an unknown ?format is a 400 Error also in the production pipeline, which serves this read ahead of the validator', async () => {
    const prod = await scanApiApp({ VALIDATE_RESPONSES: 'false' }, { scanner: fakeScanner() });
    try {
      const res = await request(prod.app).get(`/r/${ids[0]}?format=xml`).expect(400);
      assert.match(res.body.error, /format must be html or json/);
    } finally {
      await prod.close();
    }
  });
});
