// Fault: a single embedded instance (no REDIS_URL: SQLite, the liteque-based job engine in a
// file beside the database) is SIGKILLed five times during a 100-item batch and started again
// each time on the same files, as a crash-looping container would be. Nothing is lost and
// nothing is done twice: the batch finishes, every domain appears once in getBatchResults, and
// none is archived twice. Items a killed process had claimed come back when their claim's lease
// lapses (the job timeout plus 5 s: SCAN_DEADLINE_MS 8 s + 20 s + 5 s here).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { assertExactlyOnce, batchProgress, createBatch, partnerKey, waitForBatch, worldDomains, worldServiceEnv } from '../helpers/batch-run.ts';
import { startWorld, type World } from '../world/index.ts';

const KILLS = 5;
const domains = worldDomains(100, String(Date.now() % 100_000));

describe('fault: an embedded instance SIGKILLed five times during a 100-item batch', () => {
  let dir: string;
  let world: World | undefined;
  let env: Record<string, string>;
  const instances: Child[] = [];
  let db: Knex | undefined;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'embedded-kill-'));
    // Slow sites: each scan takes a while, so every kill finds items in flight.
    world = await startWorld({ latencyMs: 100 });
    env = {
      ...worldServiceEnv(world), DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, MAIL_DIR: path.join(dir, 'mail'), BASE_URL: 'http://embedded-kill.test',
      // A repeated run must be kept from a second archive by the item's own write, not by the window of recent results.
      COALESCE_WINDOW_S: '0',
      WORKER_CONCURRENCY: '6', FLEET_PER_ADDRESS_CONCURRENCY: '6', SCAN_DEADLINE_MS: '8000', LOG_LEVEL: 'warn',
    };
    instances.push(await spawnService(env, { timeoutMs: 120_000 }));
    db = knex({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'db.sqlite'), options: { readonly: true } }, useNullAsDefault: true });
  });

  after(async () => {
    for (const i of instances) await i.stop('SIGKILL');
    await db?.destroy();
    await world?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the batch finishes across five SIGKILLs and restarts: each domain once in the results, none archived twice', { timeout: 420_000 }, async () => {
    const current = () => instances.at(-1)!;
    const key = await partnerKey(current().url);
    const started = Date.now();
    const id = await createBatch(current().url, key, domains);
    const kills: string[] = [];
    for (let k = 1; k <= KILLS; k++) {
      // Kill k once 10 × k items are done: progress between kills, items in flight at each, and
      // at least half the batch still to do after the last.
      const at = await waitForBatch(() => current().url, key, id, (p) => p.done >= 10 * k, `${10 * k} items done before kill ${k}`, 120_000);
      const running = Number((await db!('batch_items').where({ batch_id: id, state: 'running' }).count({ n: '*' }))[0]!.n);
      const code = await current().stop('SIGKILL');
      assert.equal(current().process.signalCode, 'SIGKILL', `instance ${k} was killed, not exited (${code})`);
      const killedAt = Date.now();
      kills.push(`kill ${k} at ${Math.round((killedAt - started) / 1000)} s, ${at.done} done/${running} running`);
      assert.notEqual(at.status, 'done', `the batch finished before kill ${k}, so it tests nothing: ${kills.join('; ')}`);
      instances.push(await spawnService(env, { timeoutMs: 120_000 }));
      kills[kills.length - 1] += `, up again in ${Date.now() - killedAt} ms`;
    }
    const lastRestart = Date.now();
    const done = await waitForBatch(() => current().url, key, id, (p) => p.status === 'done', 'the batch to finish after the last restart', 150_000);
    const finishedAt = Date.now();
    await assertExactlyOnce(current().url, key, id, domains, db!);
    console.log(`embedded-kill figures: ${domains.length} items; ${kills.join('; ')}; batch done ${finishedAt - lastRestart} ms after the last restart, ${finishedAt - started} ms in all; ${done.done} done, ${done.failed} failed`);
  });
});
