// RFC 8058 one-click unsubscribe in both encodings the RFC allows (§3.2: the POST SHOULD be
// multipart/form-data and MAY be application/x-www-form-urlencoded; it carries the single
// field List-Unsubscribe=One-Click). Each must end the watch. The multipart bodies come from
// encoders we did not write (Node's fetch/FormData, supertest's form-data) and from the
// RFC's own example (§8), byte for byte but for the boundary; refusals leave the watch alone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import request from 'supertest';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeScanner } from '../scan-api/fixtures.ts';
import { recordingDeliveries } from './fakes.ts';

describe('one-click unsubscribe (RFC 8058), multipart and urlencoded', () => {
  let t: TestApp;
  let server: http.Server;
  let base: string;
  let n = 0;
  before(async () => {
    t = await testApp({ LOG_LEVEL: 'silent' }, {}, { scanner: fakeScanner(), deliveries: recordingDeliveries() });
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    await t.close();
  });

  /** A fresh pending watch (its own mailbox) and the path of its mail's List-Unsubscribe URL. */
  async function watchWithLink(): Promise<{ watchId: string; path: string }> {
    n++;
    const made = await request(t.app).post('/watches').send({ domain: `w${n}.one-click-site.com`, lead: { name: 'Ada', email: `ada${n}@one-click-site.com` }, every: 'week' }).expect(202);
    const mail = (await listMail(t.ctx.db)).find((m) => m.watch_id === made.body.watchId)!;
    const header = (JSON.parse(mail.headers!) as Record<string, string>)['List-Unsubscribe']!;
    const url = new URL(header.replace(/^<|>$/g, ''));
    return { watchId: made.body.watchId, path: url.pathname + url.search };
  }
  const statusOf = async (watchId: string) => (await t.ctx.db('watches').where({ id: watchId }).first()).status as string;

  test('multipart/form-data from Node\'s fetch (FormData) ends the watch', async () => {
    const w = await watchWithLink();
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    const res = await fetch(base + w.path, { method: 'POST', body: form, headers: { Accept: 'application/json' } });
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { watchId: w.watchId, status: 'ended' });
    assert.equal(await statusOf(w.watchId), 'ended');
  });

  test('multipart/form-data as in RFC 8058 §8 (raw bytes) and from supertest\'s encoder end the watch; the page for a browser', async () => {
    const w = await watchWithLink();
    const boundary = '---FormBoundaryjWmhtjORrn';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const res = await request(t.app).post(w.path).set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body).expect(200).expect(conforms);
    assert.match(res.text, /This watch has ended/);
    assert.equal(await statusOf(w.watchId), 'ended');
    const w2 = await watchWithLink();
    await request(t.app).post(w2.path).set('Accept', 'application/json').field('List-Unsubscribe', 'One-Click').expect(200).expect(conforms);
    assert.equal(await statusOf(w2.watchId), 'ended');
  });

  test('application/x-www-form-urlencoded (what Gmail sends) ends the watch', async () => {
    const w = await watchWithLink();
    const res = await fetch(base + w.path, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }), headers: { Accept: 'application/json' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { watchId: w.watchId, status: 'ended' });
    assert.equal(await statusOf(w.watchId), 'ended');
  });

  test('refused bodies (none, a file part, no pair or another value, malformed, too large, wrong token) end nothing', async () => {
    const w = await watchWithLink();
    const file = await request(t.app).post(w.path).field('List-Unsubscribe', 'One-Click').attach('List-Unsubscribe-File', Buffer.from('x'), 'x.txt').expect(400).expect(conforms);
    assert.match(file.body.hint, /text fields only/);
    await request(t.app).post(w.path).field('List-Unsubscribe', 'Maybe').expect(400).expect(conforms);
    await request(t.app).post(w.path).field('Other', 'One-Click').expect(400).expect(conforms);
    // A blind POST (a link scanner following the link) carries no pair.
    await request(t.app).post(w.path).expect(415).expect(conforms);
    await request(t.app).post(w.path).type('form').send('').expect(400).expect(conforms);
    await request(t.app).post(w.path).field('List-Unsubscribe[x]', 'One-Click').expect(400).expect(conforms);
    const cut = await request(t.app).post(w.path).set('Content-Type', 'multipart/form-data; boundary=b').send('--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Cl').expect(400).expect(conforms);
    assert.match(cut.body.hint, /multipart\/form-data body could not be read/);
    await request(t.app).post(w.path).set('Content-Type', 'multipart/form-data').send('--b--').expect(400).expect(conforms);
    await request(t.app).post(w.path).field('List-Unsubscribe', 'One-Click').field('pad', 'x'.repeat(2000)).expect(413).expect(conforms);
    await request(t.app).post(w.path.replace(/token=[^&]+/, `token=${'B'.repeat(43)}`)).field('List-Unsubscribe', 'One-Click').expect(404).expect(conforms);
    assert.equal(await statusOf(w.watchId), 'pending-confirmation');
    await request(t.app).post(w.path).field('List-Unsubscribe', 'One-Click').expect(200).expect(conforms);
    assert.equal(await statusOf(w.watchId), 'ended');
  });

  test('other operations still refuse multipart bodies with 415', async () => {
    await request(t.app).post('/watches').field('domain', 'x.one-click-site.com').expect(415).expect(conforms);
  });
});
