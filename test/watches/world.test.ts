// Acceptance in the test world, on the real composition root (embedded engine, SQLite): a
// watch made over the API is confirmed through the link of the mail the SMTP sink caught; with
// WATCH_INTERVAL_S=5 its runs are archived scans of watched-shop; a run with no change sends
// nothing; the site's edge then starts blocking GPTBot, and the mail and the signed webhook
// (delivered through networkA's proxy to a receiver in the world) say so, and diffReports of
// the two runs lists that cell; the one-click unsubscribe (RFC 8058) stops the watch; a watch
// never confirmed never runs. A key's watch of another site runs beside them as the clock the
// "never runs" claims are read against (no sleeps: periods are counted on it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import request from 'supertest';
import { createScanner } from '../../src/scanner/engine.ts';
import { resolveHost } from '../../src/net/resolve.ts';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { SmtpSink } from '../scan-api/smtp-sink.ts';
import { startWorld, type World } from '../world/index.ts';
import { webhookReceiver } from '../world/receiver.ts';
import { BLOCK_GPTBOT } from '../world/scenarios/watches.ts';
import { until } from './fakes.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@watch-owner.com' };

describe('watches in the test world', () => {
  let world: World;
  let t: TestApp;
  const sink = new SmtpSink();
  const receiver = webhookReceiver();
  let key: string;
  before(async () => {
    world = await startWorld({ handlers: { hooks: receiver.handler } });
    await sink.start(await SmtpSink.freePort());
    const { networkA, networkB } = world.egress();
    const scanner = createScanner({ networks: { networkA, networkB }, deadlineMs: 20_000, probeTimeoutMs: 5000 });
    t = await testApp({
      LOG_LEVEL: 'silent', SMTP_URL: `smtp://127.0.0.1:${sink.port}`, WATCH_INTERVAL_S: '5',
      // Runs 5 s apart must each scan: no coalescing with the previous run, room in the per-site limit.
      COALESCE_WINDOW_S: '0', RATE_LIMIT_PER_DOMAIN: '30/60', MAIL_PER_RECIPIENT_PER_DAY: '20', WEBHOOK_BACKOFF_MS: '200',
    }, {}, {
      scanner, mailer: true, webhookEgress: world.egress().networkA,
      scans: { resolve: (host) => resolveHost(host, world.resolveOverrides, 2000) },
    });
    key = (await t.services.keys.create('Clock', 100)).key;
  });
  after(async () => {
    receiver.close();
    await t?.close();
    await sink.stop();
    await world?.stop();
  });

  const mails = async (to: string): Promise<ParsedMail[]> => Promise.all(sink.received.filter((m) => m.to.includes(to)).map((m) => simpleParser(m.raw)));
  const watchOf = async (id: string, token: string) => (await request(t.app).get(`/watches/${id}?token=${token}`).set('Accept', 'application/json').expect(200)).body;
  /** A header as the raw message carries it (unfolded): mailparser reads List-* headers into objects of its own. */
  const rawHeader = (to: string, n: number, name: string) => {
    const raw = sink.received.filter((m) => m.to.includes(to))[n]!.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    return new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1]?.trim();
  };
  const linkIn = (text: string, kind: string) => new URL(new RegExp(`https?://\\S+/watches/[0-9a-f-]{36}/${kind}\\?token=[A-Za-z0-9_-]{43}`).exec(text)![0]);

  test('confirmed through the mailed link, runs every period, alerts on GPTBot being blocked, stops on one-click unsubscribe', { timeout: 240_000 }, async () => {
    const shop = world.domain('watched-shop');
    const hookUrl = `https://${world.domain('hooks')}/watch`;
    const made = await request(t.app).post('/watches').send({ domain: shop, lead, every: 'day', notify: { webhookUrl: hookUrl } }).expect(202).expect(conforms);
    const { watchId, manageUrl, webhookSecret } = made.body as { watchId: string; manageUrl: string; webhookSecret: string };
    const token = new URL(manageUrl).searchParams.get('token')!;
    // Never confirmed: must never run (checked at the end, against the clock watch's periods).
    const stranger = await request(t.app).post('/watches').send({ domain: world.domain('open-basic'), lead: { name: 'Someone', email: 'stranger@watch-owner.com' }, every: 'day' }).expect(202);
    const clock = await request(t.app).post('/watches').set('Authorization', `Bearer ${key}`).send({ domain: world.domain('robots-partial'), lead, every: 'day' }).expect(202);
    const clockToken = new URL(clock.body.manageUrl).searchParams.get('token')!;
    const clockRuns = async () => (await watchOf(clock.body.watchId, clockToken)).runs.filter((r: { state: string }) => r.state !== 'running').length as number;

    await until(async () => (await mails(lead.email)).length === 1, 'the confirmation mail in the SMTP sink');
    const [confirmation] = await mails(lead.email);
    assert.match(confirmation!.subject ?? '', /^Confirm: watch watched-shop/);
    const unsubscribeHeader = rawHeader(lead.email, 0, 'List-Unsubscribe') ?? '';
    assert.match(unsubscribeHeader, /^<https?:\/\/\S+\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/);
    assert.equal(rawHeader(lead.email, 0, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    const confirmLink = linkIn(confirmation!.text ?? '', 'confirm');
    const page = await request(t.app).get(confirmLink.pathname + confirmLink.search).expect(200).expect(conforms);
    assert.match(page.text, /Start watching/);
    assert.deepEqual((await watchOf(watchId, token)).runs, [], 'opening the link runs nothing');
    await request(t.app).post(confirmLink.pathname + confirmLink.search).type('form').send({ confirm: 'yes' }).expect(200).expect(conforms);

    // The baseline, then a run with nothing changed: neither sends anything.
    await until(async () => (await watchOf(watchId, token)).runs.filter((r: { state: string }) => r.state === 'done').length >= 2, 'the baseline and a second run', 120_000);
    let w = await watchOf(watchId, token);
    const done = w.runs.filter((r: { state: string }) => r.state === 'done').reverse();
    assert.equal(done[0].baseline, true);
    assert.ok(done.slice(0, 2).every((r: { changes: unknown[] }) => r.changes.length === 0), JSON.stringify(done));
    assert.notEqual(done[0].scanId, done[1].scanId, 'each run is a scan of its own');
    for (const r of done.slice(0, 2)) await request(t.app).get(new URL(r.reportUrl).pathname).set('Accept', 'application/json').expect(200);
    assert.equal((await mails(lead.email)).length, 1, 'no mail for a run without a change');
    assert.deepEqual(receiver.received('/watch'), [], 'no webhook for a run without a change');

    // The edge starts blocking GPTBot.
    world.update('watched-shop', { edge: BLOCK_GPTBOT });
    try {
      await until(async () => (await mails(lead.email)).length >= 2, 'the change alert mail', 120_000);
      const [hook] = await receiver.until('/watch', 1, 60_000);
      const alert = (await mails(lead.email))[1]!;
      assert.match(alert.subject ?? '', /watched-shop\.world-fixtures\.com changed/);
      assert.match(alert.text ?? '', /Requests identifying as (\S+, )*GPTBot\b[^\n]* from network A( and network B)? are now blocked/);
      assert.equal(rawHeader(lead.email, 1, 'List-Unsubscribe'), unsubscribeHeader, 'every mail of the watch carries the same one-click link');
      assert.equal(rawHeader(lead.email, 1, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
      w = await watchOf(watchId, token);
      const changed = w.runs.find((r: { changes: unknown[] }) => r.changes.length > 0);
      assert.ok(changed.diffUrl && (alert.text ?? '').includes(changed.diffUrl), 'the mail links the diff');
      assert.ok((alert.text ?? '').includes(changed.reportUrl), 'the mail links the new report');

      // The webhook: signed with the secret createWatch returned, checked here with node:crypto.
      const event = JSON.parse(hook!.body.toString('utf8'));
      assert.equal(event.type, 'readiness.changed');
      assert.equal(hook!.headers['agentreadiness-event-id'], event.id);
      assert.equal(event.watchId, watchId);
      assert.equal(event.to.scanId, changed.scanId);
      assert.ok(event.changes.some((c: { kind: string; text: string }) => c.kind === 'cell' && /GPTBot/.test(c.text)), JSON.stringify(event.changes));
      const sig = String(hook!.headers['agentreadiness-signature']);
      const ts = /t=(\d+)/.exec(sig)![1]!;
      const expected = createHmac('sha256', webhookSecret).update(`${ts}.`).update(hook!.body).digest();
      assert.ok(/v1=([0-9a-f]{64})/.exec(sig) && timingSafeEqual(Buffer.from(/v1=([0-9a-f]{64})/.exec(sig)![1]!, 'hex'), expected), 'the signature verifies');

      // diffReports of the two runs lists the GPTBot cell.
      const diff = await request(t.app).get(`/r/${event.from.scanId}/diff/${event.to.scanId}`).set('Accept', 'application/json').expect(200).expect(conforms);
      assert.ok(diff.body.cells.some((c: { agent: string; edge: { before: string; after: string } }) => c.agent === 'GPTBot' && c.edge.before === 'pass' && c.edge.after === 'block'), JSON.stringify(diff.body.cells));
    } finally {
      world.reset('watched-shop');
    }

    // One click in the mail client: the watch ends, and no run follows (two more clock periods pass).
    const oneClick = new URL(unsubscribeHeader.replace(/^<|>$/g, ''));
    await request(t.app).post(oneClick.pathname + oneClick.search).type('form').send('List-Unsubscribe=One-Click').expect(200).expect(conforms);
    const ended = await watchOf(watchId, token);
    assert.equal(ended.status, 'ended');
    const settled = ended.runs.filter((r: { state: string }) => r.state !== 'running').length;
    const clockNow = await clockRuns();
    await until(async () => (await clockRuns()) >= clockNow + 2, 'two more periods of the clock watch', 120_000);
    const after = await watchOf(watchId, token);
    assert.ok(after.runs.length <= settled + 1 && after.runs.every((r: { state: string }) => r.state !== 'running'), `no run after the unsubscribe: ${JSON.stringify(after.runs.slice(0, 3))}`);

    const never = await watchOf(stranger.body.watchId, new URL(stranger.body.manageUrl).searchParams.get('token')!);
    assert.deepEqual([never.status, never.runs], ['pending-confirmation', []], 'a watch never confirmed never ran');
    assert.equal(await t.ctx.db('scans').where({ domain: world.domain('open-basic') }).count({ n: '*' }).then((r) => Number(r[0]!.n)), 0);
    const archived = Number((await t.ctx.db('scans').where({ domain: shop }).count({ n: '*' }))[0]!.n);
    assert.ok(archived >= 3, `the watched site's history grew by one scan per run (${archived})`);
  });
});
