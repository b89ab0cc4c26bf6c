// The batch benchmark (bench/batches.ts) runs end to end at a tiny size: every row it reports is
// there with a figure (no timing is asserted: figures belong to `npm run bench`), and --no-write
// leaves bench/results.md alone. The two-instance row runs when PostgreSQL and Redis are given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const shared = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
if (!shared) console.warn('bench smoke: TEST_DATABASE_URL and TEST_REDIS_URL not both set: the two-instance row is checked to say "not measured"');

test('bench/batches.ts at a tiny size reports every figure and writes nothing', { timeout: 600_000 }, async () => {
  const results = readFileSync(path.join(root, 'bench/results.md'), 'utf8');
  const { stdout } = await promisify(execFile)(process.execPath, ['bench/batches.ts', '--items', '6', '--rss-items', '10', '--burst', '4', '--probes', '2', '--no-write'], {
    cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 580_000,
  });
  for (const row of [
    /\| scans per second one core sustains, 6-item batch .*\| [\d.,]+ \(.* 6 done, 0 failed/,
    /\| the same, 4 POST \/scan at once .*\| [\d.,]+ \(/,
    /\| job engine's own CPU per item, embedded \(queue table\), 6 no-op jobs \| .*\| [\d.,]+ ms = [\d.,]+ % of a scan \|/,
    /\| resident size, 10-item batch: .*\| [\d.,]+ \([\d.,]+ → [\d.,]+ MiB; 10 done, 0 failed\) \|/,
    /\| p95 of a person's POST \/scan during a 6-item batch \/ idle \| ≤ 2 × \| [\d.,]+ × /,
    /\*\*A million domains\*\*: .* [\d.,]+ instance-hours/,
  ]) assert.match(stdout, row);
  if (shared) {
    assert.match(stdout, /\| job engine's own CPU per item, distributed \(BullMQ; Node side\)/);
    assert.match(stdout, /\| two instances on PostgreSQL and Redis \/ one .*\| [\d.,]+ × \(/);
  } else assert.match(stdout, /two instances .*\*\*not measured\*\*/);
  assert.equal(readFileSync(path.join(root, 'bench/results.md'), 'utf8'), results, '--no-write left bench/results.md alone');
});
