// The summary pages' `page` parameter (the portfolio grid's page) as an abuser would send it:
// not a whole number from 1 is a 400 in the Error shape on both the keyed and the capability
// summary, never a 5xx; a page past the end is the page saying so; JSON answers ignore it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from '../scan-api/api-app.ts';
import { cannedReport, fakeScanner } from '../scan-api/fixtures.ts';

describe('the portfolio grid\'s page parameter', () => {
  let t: TestApp;
  let key: string;
  let batchId: string;
  let shared: string;
  before(async () => {
    t = await scanApiApp({ FLEET_PER_ADDRESS_CONCURRENCY: '4' }, { scanner: fakeScanner({ make: (d) => cannedReport(d) }) });
    key = (await t.services.keys.create('Grid Partner', 20)).key;
    const res = await request(t.app).post('/batches').set('Authorization', `Bearer ${key}`).send({ domains: ['a.grid-api.com', 'b.grid-api.com'] }).expect(202);
    batchId = res.body.batchId;
    shared = new URL(res.body.links.summaryPage).pathname;
    const stop = Date.now() + 60_000;
    while ((await request(t.app).get(`/batches/${batchId}`).set('Authorization', `Bearer ${key}`)).body.status !== 'done') {
      if (Date.now() > stop) throw new Error('the batch did not finish');
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  after(() => t.close());

  test('a page that is not a whole number from 1 is a 400 on both summaries; past the end the page says so; JSON ignores it', async () => {
    for (const page of ['0', '-1', 'abc', '1.5', '9999999999', '', '1,2']) {
      await request(t.app).get(`/batches/${batchId}/summary`).query({ page }).set('Authorization', `Bearer ${key}`).set('Accept', 'text/html').expect(400).expect(conforms);
      await request(t.app).get(shared).query({ page }).set('Accept', 'application/json').expect(400).expect(conforms);
    }
    const html = await request(t.app).get(`/batches/${batchId}/summary`).query({ page: 2 }).set('Authorization', `Bearer ${key}`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(html.text, /This page is past the last site \(2 scanned\)\./);
    const first = await request(t.app).get(shared).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.equal((first.text.match(/<tr><th scope="row">/g) ?? []).length, 2, 'both sites in the grid');
    assert.match(first.text, /<a href="\/r\/[0-9a-f-]{36}">a\.grid-api\.com<\/a> <span class="muted">\(1\)<\/span>/, 'the canned report denies GPTBot: one agent');
    const json = await request(t.app).get(`/batches/${batchId}/summary`).query({ page: 7 }).set('Authorization', `Bearer ${key}`).expect(200).expect(conforms);
    assert.equal(json.body.finished, 2);
  });
});
