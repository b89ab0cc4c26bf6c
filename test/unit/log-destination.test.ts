// The service log's destination (src/log/destination.ts): lines arrive whole and in order, a
// batch at a time, and none is lost when the process exits, however it exits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { completedLineWriter } from '../../src/http/request-log.ts';
import { BatchedLogDestination } from '../../src/log/destination.ts';

const MODULE = pathToFileURL(path.resolve(import.meta.dirname, '../../src/log/destination.ts')).href;

/** A destination writing to a fresh file, and what the file holds. */
function toFile(options: { batchChars?: number; maxDelayMs?: number } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'log-dest-'));
  const file = path.join(dir, 'out.log');
  const fd = openSync(file, 'w');
  const dest = new BatchedLogDestination({ fd, ...options });
  return {
    dest,
    read: () => readFileSync(file, 'utf8'),
    [Symbol.dispose]() {
      dest.end();
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `check` holds, polling each turn of the event loop; the bound only stops a hang. */
async function until(check: () => boolean, what: string): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > giveUp) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Runs a module in a child node that logs `count` lines through the destination and then ends as `ending` says. */
function childLogs(count: number, ending: string) {
  const script = `
    import { pino } from 'pino';
    import { BatchedLogDestination } from ${JSON.stringify(MODULE)};
    const log = pino({ base: undefined, timestamp: false }, new BatchedLogDestination());
    for (let i = 0; i < ${count}; i++) log.info({ i }, 'line');
    ${ending}
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.resolve(import.meta.dirname, '../..'), encoding: 'utf8', timeout: 60_000 });
}

const expected = (count: number) => Array.from({ length: count }, (_, i) => JSON.stringify({ level: 30, i, msg: 'line' })).join('\n') + '\n';

describe('log destination', () => {
  test('lines wait until a batch fills, then arrive whole and in order', () => {
    using out = toFile({ batchChars: 1000, maxDelayMs: 600_000 });
    const line = (i: number) => `${String(i).padStart(3, '0')}${'x'.repeat(96)}\n`; // 100 characters
    for (let i = 0; i < 9; i++) out.dest.write(line(i));
    assert.equal(out.read(), '', 'nine lines of 100 characters are below the batch of 1,000');
    out.dest.write(line(9));
    assert.equal(out.read(), Array.from({ length: 10 }, (_, i) => line(i)).join(''));
    out.dest.write(line(10));
    out.dest.flush();
    assert.equal(out.read(), Array.from({ length: 11 }, (_, i) => line(i)).join(''));
  });

  test('a lone line is written once the delay has passed, with no more traffic', async () => {
    using out = toFile({ maxDelayMs: 20 });
    out.dest.write('alone\n');
    assert.equal(out.read(), '');
    await until(() => out.read() === 'alone\n', 'the lone line was written');
  });

  test('characters outside ASCII arrive intact, across batches', () => {
    using out = toFile({ batchChars: 10 });
    const lines = ['café ☕\n', 'naïve 🤖 agent\n', '中文\n', 'plain\n'];
    for (const l of lines) out.dest.write(l);
    out.dest.flush();
    assert.equal(out.read(), lines.join(''));
  });

  test('pino writes through it, flush() with a callback included, and the request log keeps its hand-written line', async () => {
    using out = toFile();
    const log = pino({ base: undefined, timestamp: false }, out.dest);
    assert.ok(completedLineWriter(log), 'a plain logger over this destination gets the fast "request completed" line');
    log.info({ a: 1 }, 'one');
    log.warn('two');
    assert.equal(out.read(), '');
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    assert.equal(out.read(), '{"level":30,"a":1,"msg":"one"}\n{"level":40,"msg":"two"}\n');
  });

  test('end() writes what is pending and drops later lines', () => {
    using out = toFile();
    assert.equal(out.dest.write('before\n'), true);
    out.dest.end();
    assert.equal(out.dest.write('after\n'), false);
    out.dest.flush();
    assert.equal(out.read(), 'before\n');
  });

  // Each ending leaves lines pending in the batch (200 lines of ~35 characters are below 12 KiB).
  const endings: Array<[string, string, number | null]> = [
    ['process.exit() right after logging (the SIGTERM handler\'s path)', 'process.exit(0);', 0],
    ['the event loop running empty', '', 0],
    ['an uncaught exception', "throw new Error('boom');", 1],
  ];
  for (const [name, ending, code] of endings) {
    test(`no pending line is lost on ${name}`, () => {
      const r = childLogs(200, ending);
      assert.equal(r.status, code, r.stderr);
      assert.equal(r.stdout, expected(200));
    });
  }
});
