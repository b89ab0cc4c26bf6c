// SIGTERM while scans are in flight: the service (src/main.js, a real process) stops
// accepting, lets the scans finish or fail cleanly, exits 0, and leaves nothing
// half-written: every archived row is a whole report with its mail in the outbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { validateScanReport } from '../../generated/validators.js';
import { conforms } from '../helpers/contract.ts';
import { rawRequest, type RawResponse } from '../hostile/lib/raw-http.ts';
import { startWorld, type World } from '../world/index.ts';

const lead = { name: 'Sigterm Tester', email: 'sigterm@world-fixtures.com' };

describe('fault: SIGTERM with scans in flight', () => {
  let world: World;
  let dir: string;
  let service: Child;
  const dbFile = () => path.join(dir, 'db.sqlite');

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sigterm-'));
    // Slow sites, so the scans are surely in flight when the signal comes.
    world = await startWorld({ latencyMs: 250 });
    service = await spawnService({
      DATABASE_URL: `sqlite:${dbFile()}`, MAIL_DIR: path.join(dir, 'mail'), LOG_LEVEL: 'warn',
      NETWORK_A_PROXY: world.env.NETWORK_A_PROXY!, NETWORK_B_PROXY: world.env.NETWORK_B_PROXY!, SCAN_RESOLVE: world.env.SCAN_RESOLVE!,
      NODE_EXTRA_CA_CERTS: world.env.NODE_EXTRA_CA_CERTS!, RATE_LIMIT_PER_IP: '100/1800', MAIL_PER_RECIPIENT_PER_DAY: '100', SCAN_DEADLINE_MS: '6000', PROBE_TIMEOUT_MS: '2000',
    });
  });

  after(async () => {
    await service?.stop('SIGKILL');
    await world?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('scans in flight finish (or fail with a clean 502), the process exits 0, and every archived report is whole', async () => {
    const domains = ['open-basic--901', 'open-basic--902', 'open-basic--903', 'hang'].map((l) => `${l}.world-fixtures.com`);
    const seenBefore = world.proxyLogs.networkA.seen.length + world.proxyLogs.networkB.seen.length;
    const inflight = domains.map((domain) =>
      rawRequest(service.url, { method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ domain, lead }), timeoutMs: 60_000 }));
    // SIGTERM only once scans are really running: their probes have reached the world's proxies.
    const stop = Date.now() + 60_000;
    while (world.proxyLogs.networkA.seen.length + world.proxyLogs.networkB.seen.length < seenBefore + 4) {
      assert.ok(Date.now() < stop, 'no scan started probing within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    const exited = new Promise<number | null>((resolve) => service.process.once('exit', (code) => resolve(code)));
    service.process.kill('SIGTERM');

    const answers: RawResponse[] = await Promise.all(inflight);
    for (const res of answers) {
      conforms(res);
      assert.ok(res.status === 200 || res.status === 502, `${res.status} ${res.text.slice(0, 200)}`);
    }
    const archived = answers.filter((r) => r.status === 200 && typeof JSON.parse(r.text).reportUrl === 'string').map((r) => JSON.parse(r.text).scanId as string);
    assert.ok(archived.length >= 3, `only ${archived.length} scans were archived`);
    assert.equal(await exited, 0, 'the service did not exit cleanly');

    const db = knex({ client: 'better-sqlite3', connection: { filename: dbFile() }, useNullAsDefault: true });
    try {
      const rows = await db('scans').select('id', 'report');
      assert.deepEqual(rows.map((r: { id: string }) => r.id).sort(), [...archived].sort(), 'archived rows differ from the reports answered with a link');
      for (const row of rows as { id: string; report: string }[]) {
        const report = JSON.parse(row.report) as Record<string, unknown>;
        assert.ok(validateScanReport(report), `row ${row.id} is not a whole report`);
      }
      const mails = await db('mail_outbox').select('scan_id');
      assert.deepEqual(mails.map((m: { scan_id: string }) => m.scan_id).sort(), [...archived].sort(), 'a report without its mail, or a mail without its report');
    } finally {
      await db.destroy();
    }
  });
});
