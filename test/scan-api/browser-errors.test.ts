// A person who follows a cut-short report link or mistypes an address in a browser gets a page
// that says what went wrong, in both pipelines (production serves GET /r/{scanId} ahead of the
// validator; development lets the validator see the id first). Programs keep the Error object.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { scanApiApp } from './api-app.ts';
import { fakeScanner } from './fixtures.ts';

/** What Chromium sends for a navigation. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const CUT_SHORT = '/r/14a013e1-06a1-4157-b503-a47de';

for (const pipeline of ['production', 'development'] as const) {
  describe(`pages for browsers where programs get errors (${pipeline})`, () => {
    let t: TestApp;
    before(async () => {
      t = await scanApiApp({ VALIDATE_RESPONSES: pipeline === 'production' ? 'false' : 'true' }, { scanner: fakeScanner() });
    });
    after(async () => { await t?.close(); });

    test(`${pipeline}: a cut-short report link in a browser is a 400 page saying the link is incomplete`, async () => {
      const page = await request(t.app).get(CUT_SHORT).set('Accept', BROWSER).expect(400).expect(conforms);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.text, /This report link is incomplete/);
      assert.match(page.text, /<code>\/r\/14a013e1-06a1-4157-b503-a47de<\/code>/);
      assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
      assert.match(String(page.headers.vary), /Accept/);
      assert.equal(page.headers['cache-control'], 'no-store');
    });

    test(`${pipeline}: a malformed report id asked for as JSON, or with an invalid format, stays the Error object`, async () => {
      const json = await request(t.app).get(CUT_SHORT).set('Accept', 'application/json').expect(400).expect(conforms);
      assert.equal(typeof json.body.error, 'string');
      await request(t.app).get(`${CUT_SHORT}?format=json`).set('Accept', BROWSER).expect(400).expect('content-type', /json/);
      await request(t.app).get(`${CUT_SHORT}?format=pdf`).set('Accept', BROWSER).expect(400).expect('content-type', /json/);
    });

    test(`${pipeline}: an address nothing serves is a 404 page for a browser, its path escaped and shortened`, async () => {
      const page = await request(t.app).get('/reprot/%3Cscript%3Ealert(1)%3C%2Fscript%3E').set('Accept', BROWSER).expect(404);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.text, /There is no page here/);
      assert.doesNotMatch(page.text, /<script/i);
      assert.match(String(page.headers.vary), /Accept/);
      const long = await request(t.app).get(`/${'x'.repeat(3000)}`).set('Accept', BROWSER).expect(404);
      assert.ok(long.text.length < 3000, 'the page echoes a shortened path');
      assert.match(long.text, /<code>\/x{119}…<\/code>/);
    });

    test(`${pipeline}: programs asking for JSON, anything or nothing, and every method but GET, get the Error object for an unknown address`, async () => {
      for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html']) {
        const r = request(t.app).get('/nope');
        // Not an operation, so the contract helper cannot check it: the Error object by hand.
        const res = await (accept ? r.set('Accept', accept) : r).expect(404).expect('content-type', /^application\/json/);
        assert.deepEqual(res.body, { error: 'No endpoint at GET /nope.', hint: 'The endpoints are listed at /openapi.json.' }, `Accept: ${accept}`);
      }
      const post = await request(t.app).post('/nope').set('Accept', BROWSER).send({}).expect(404);
      assert.match(String(post.headers['content-type']), /json/);
    });
  });
}
