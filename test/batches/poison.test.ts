// A poison item: a domain whose scan kills the process every time (the embedded default, its
// process restarted after each death as a supervisor would). The engine gives its job up after
// LOST_RUNS lost runs; the item ends `failed` with the reason, the batch finishes, and neither
// a later start nor the reconciler ever scans it again.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { LOST_RUNS } from '../../src/jobs/port.ts';

const TOKEN = 'operator-token-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'batch-poison-'));
const LOG = path.join(dir, 'scans.log');
const env = {
  ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, OPERATOR_TOKEN: TOKEN, BASE_URL: 'http://poison.test',
  NETWORK_A_PROXY: 'http://127.0.0.1:9', JOB_LEASE_MS: '2000', LOG_LEVEL: 'silent', LOG,
};
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the service; resolves with its URL and process. */
async function start(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'poison-child.ts')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => { out += d; });
  const stop = Date.now() + 60_000;
  while (!out.includes('\n')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the service exited before it listened');
    if (Date.now() > stop) throw new Error('the service did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: out.trim(), child };
}
const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
const scans = (domain: string) => (fs.existsSync(LOG) ? fs.readFileSync(LOG, 'utf8').split('\n').filter((l) => l.startsWith(`scan ${domain} `)).length : 0);

describe('a poison batch item (its scan kills the process every time)', () => {
  test('fails once with the reason after LOST_RUNS lost runs; the batch finishes; no later start scans it again', async () => {
    let svc = await start();
    const json = async (p: string, init: RequestInit = {}) => {
      const res = await fetch(`${svc.url}${p}`, init);
      return { status: res.status, body: await res.json() as Record<string, unknown> };
    };
    const made = await json('/internal/api-keys', { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Poison Partner', dailyScans: 100 }) });
    assert.equal(made.status, 201);
    const auth = { Authorization: `Bearer ${String(made.body.key)}` };
    const domains = ['a.poison-batch-site.com', 'poison.poison-batch-site.com', 'b.poison-batch-site.com'];
    const created = await json('/batches', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ domains }) });
    assert.equal(created.status, 202);
    const id = String(created.body.batchId);

    // A supervisor: whenever the service dies, start it again, until the batch is done.
    const stop = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > stop) throw new Error(`the batch did not finish; poison scanned ${scans(domains[1]!)} times`);
      if (!alive(svc.child)) svc = await start();
      const b = await json(`/batches/${id}`, { headers: auth }).catch(() => undefined);
      if (b?.body.status === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = (await (await fetch(`${svc.url}/batches/${id}/results`, { headers: auth })).text()).trim().split('\n').map((l) => JSON.parse(l) as { domain: string; state: string; error: string | null });
    assert.deepEqual(rows.map((r) => [r.domain, r.state]), [[domains[0], 'done'], [domains[1], 'failed'], [domains[2], 'done']]);
    assert.match(rows[1]!.error ?? '', /given up after 3 lost runs/);
    assert.equal(scans(domains[1]!), LOST_RUNS, 'scanned once per lost run, then given up');

    // Started again (a clean stop, then a start): nothing re-enqueues the poison item.
    svc.child.kill('SIGTERM');
    await once(svc.child, 'exit');
    svc = await start();
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(scans(domains[1]!), LOST_RUNS, 'not scanned again after a restart');
    assert.ok(alive(svc.child));
    svc.child.kill('SIGTERM');
    await once(svc.child, 'exit');
  });
});
