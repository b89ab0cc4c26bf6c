// Cold start of the service: spawn of `node src/main.ts` to its first 200 on GET /health,
// on a fresh SQLite file (migrations run) and on an existing one. Asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnService } from './lib/child.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, median } from './lib/stats.ts';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);

export async function benchColdStart(): Promise<{ markdown: string; freshMedianMs: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cold-'));
  const fresh: number[] = [];
  const existing: number[] = [];
  try {
    const reused = `sqlite:${path.join(dir, 'reused.sqlite')}`;
    for (let i = 0; i < RUNS; i++) {
      for (const [list, databaseUrl] of [[fresh, `sqlite:${path.join(dir, `fresh-${i}.sqlite`)}`], [existing, reused]] as const) {
        const child = await spawnService({ DATABASE_URL: databaseUrl, NODE_ENV: 'production', MAIL_DIR: path.join(dir, 'mail') });
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
    `Spawn of \`node src/main.ts\` (NODE_ENV=production) to its first 200 on GET /health, polled every 5 ms; ${RUNS} runs each. Target (issue 14): ≤ 1.0 s.`,
    '',
    '| database | median | min | max |',
    '|---|---|---|---|',
    `| fresh SQLite file (migrations run) | ${fmt(median(fresh))} ms | ${fmt(Math.min(...fresh))} ms | ${fmt(Math.max(...fresh))} ms |`,
    `| existing SQLite file | ${fmt(median(existing))} ms | ${fmt(Math.min(...existing))} ms | ${fmt(Math.max(...existing))} ms |`,
  ].join('\n');
  return { markdown, freshMedianMs: median(fresh) };
}

if (import.meta.main) {
  const { markdown } = await benchColdStart();
  writeSection('cold-start', markdown);
  console.log(markdown);
}
