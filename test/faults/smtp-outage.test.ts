// SMTP down, then back, under a real service process (src/main.js): the report mail queued
// during the outage is delivered once the server returns (after the outbox's first backoff,
// about 30 s), exactly once, carrying the report link. The crash between send and mark is
// covered at the mailer's level in test/scan-api/mailer.test.ts (same Message-ID on resend).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import knex from 'knex';
import { SmtpSink } from '../scan-api/smtp-sink.ts';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';

/** Polls a condition (no fixed sleeps): resolves when it holds, fails after a generous ceiling. */
async function until(cond: () => Promise<boolean>, what: string, ceilingMs = 90_000): Promise<void> {
  const stop = Date.now() + ceilingMs;
  while (!(await cond())) {
    if (Date.now() > stop) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
import { startWorld, type World } from '../world/index.ts';

describe('fault: SMTP down, then back', () => {
  let world: World;
  let dir: string;
  let service: Child;
  const sink = new SmtpSink();
  let port = 0;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'smtp-outage-'));
    world = await startWorld();
    port = await SmtpSink.freePort(); // nobody listens yet: the outage
    service = await spawnService({
      DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, SMTP_URL: `smtp://127.0.0.1:${port}`, LOG_LEVEL: 'silent', BASE_URL: 'http://smtp-outage.test',
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!,
      NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!,
    });
  });

  after(async () => {
    await service?.stop();
    await sink.stop();
    await world?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the mail of a scan made during the outage arrives exactly once after SMTP returns', { timeout: 120_000 }, async () => {
    const res = await rawRequest(service.url, {
      method: 'POST', path: '/scan', timeoutMs: 60_000, headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'open-basic--77.world-fixtures.com', lead: { name: 'Smtp Outage', email: 'outage@world-fixtures.com' } }),
    });
    conforms(res);
    assert.equal(res.status, 200, res.text);
    const scanId = String(JSON.parse(res.text).scanId);
    // Wait for the first attempt to meet the closed port (recorded in the outbox), then bring SMTP up.
    const db = knex({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'db.sqlite') }, useNullAsDefault: true });
    try {
      const row = async () => (await listMail(db, scanId))[0];
      await until(async () => ((await row())?.attempts ?? 0) >= 1, 'the first delivery attempt');
      assert.equal(sink.received.length, 0);
      await sink.start(port);
      // Delivered and marked sent: from then on no mailer may send it again.
      await until(async () => (await row())?.status === 'sent', 'the mail marked sent after SMTP returned');
      assert.equal(sink.received.length, 1, 'the mail arrived once by the time it was marked sent');
    } finally {
      await db.destroy();
    }
    assert.deepEqual(sink.received[0]!.to, ['outage@world-fixtures.com']);
    assert.ok(sink.received[0]!.raw.includes(`http://smtp-outage.test/r/${scanId}`), 'the mail does not carry the report link');
  });
});
