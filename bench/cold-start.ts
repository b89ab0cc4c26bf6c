// Cold start of the service: spawn of `node src/main.js` to its first 200 on GET /health,
// on a fresh SQLite file (migrations run) and on an existing one, with Node's compile cache
// (src/main.js) warm as on every restart, and empty as on an instance's very first start
// when NODE_COMPILE_CACHE was not filled at build time. Asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnService, START_NODE_FLAGS } from './lib/child.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, median } from './lib/stats.ts';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);

export async function benchColdStart(): Promise<{ markdown: string; freshMedianMs: number; firstStartMedianMs: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cold-'));
  const fresh: number[] = [];
  const existing: number[] = [];
  const firstStart: number[] = [];
  const warmCache = path.join(dir, 'compile-cache');
  try {
    const reused = `sqlite:${path.join(dir, 'reused.sqlite')}`;
    // Fills the warm cache (and the reused database) before anything is timed.
    await (await spawnService({ DATABASE_URL: reused, NODE_ENV: 'production', MAIL_DIR: path.join(dir, 'mail'), NODE_COMPILE_CACHE: warmCache })).stop();
    for (let i = 0; i < RUNS; i++) {
      const runs = [
        [fresh, `sqlite:${path.join(dir, `fresh-${i}.sqlite`)}`, warmCache],
        [existing, reused, warmCache],
        [firstStart, `sqlite:${path.join(dir, `first-${i}.sqlite`)}`, path.join(dir, `empty-cache-${i}`)],
      ] as const;
      for (const [list, databaseUrl, cache] of runs) {
        const child = await spawnService({ DATABASE_URL: databaseUrl, NODE_ENV: 'production', MAIL_DIR: path.join(dir, 'mail'), NODE_COMPILE_CACHE: cache });
        list.push(child.readyMs);
        await child.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const markdown = [
    '## Cold start of the service (`npm run bench`)',
    '',
    `Measured ${nowIso()} on ${describeMachine()}; load average at start ${os.loadavg()[0]!.toFixed(2)}.`,
    `Spawn of \`node ${START_NODE_FLAGS.join(' ')} src/main.js\` (NODE_ENV=production) to its first 200 on GET /health, polled every 5 ms; ${RUNS} runs each, interleaved. Target (issue 14): ≤ 1.0 s with a fresh SQLite file.`,
    'Every start but an instance\'s first finds its modules in Node\'s compile cache (src/main.js); the last row is that first start, with an empty cache, as when `NODE_COMPILE_CACHE` is not filled at build time (README).',
    '',
    '| database | compile cache | median | min | max |',
    '|---|---|---|---|---|',
    `| fresh SQLite file (migrations run) | warm | ${fmt(median(fresh))} ms | ${fmt(Math.min(...fresh))} ms | ${fmt(Math.max(...fresh))} ms |`,
    `| existing SQLite file | warm | ${fmt(median(existing))} ms | ${fmt(Math.min(...existing))} ms | ${fmt(Math.max(...existing))} ms |`,
    `| fresh SQLite file (migrations run) | empty (first start) | ${fmt(median(firstStart))} ms | ${fmt(Math.min(...firstStart))} ms | ${fmt(Math.max(...firstStart))} ms |`,
  ].join('\n');
  return { markdown, freshMedianMs: median(fresh), firstStartMedianMs: median(firstStart) };
}

if (import.meta.main) {
  const { markdown } = await benchColdStart();
  writeSection('cold-start', markdown);
  console.log(markdown);
}
