// Loaded (--import) into every test file's process by scripts/run-tests.ts. Without
// forceExit a file whose tests have all ended still runs until nothing holds its event loop:
// that is what lets tests registered after a top-level await run, and errors thrown after the
// last test be reported. The price is that a leaked handle (a server, a child process, a pool)
// would hold the file, and so the whole run, open for ever. This guard bounds that: once no
// test has been running for TEST_HANG_S seconds (default 300) while the process is still
// alive, it names what holds the process and exits 1, so the file counts as failed, never as
// missing. The clock runs from the start (module loading, `before` hooks: a failed one cancels
// every test and can leave a started service behind) and between tests (hooks, top-level code),
// and after the last one; it stops while a test runs, which the per-test timeout bounds.
// 300 s: a `before` hook may start a world and two services, each allowed 120 s on a loaded machine.
import { afterEach, beforeEach } from 'node:test';

// The real timer functions, taken before any test can swap in mock timers (mock.timers).
const { setTimeout, clearTimeout } = globalThis;
const limitMs = Number(process.env.TEST_HANG_S ?? 300) * 1000;
let running = 0;
let timer: NodeJS.Timeout | undefined;
let lastEnded = 0;
let stopped = false;

// A file that lingers is not failed, but the time shows in the run and its cause should be found.
process.once('exit', () => {
  const lingered = lastEnded && running === 0 ? (performance.now() - lastEnded) / 1000 : 0;
  if (lingered > 10 && !stopped) process.stderr.write(`test file exited ${lingered.toFixed(0)} s after its last test ended: something it opened closed late\n`);
});

beforeEach(() => {
  running++;
  clearTimeout(timer);
});

afterEach(() => {
  running = Math.max(0, running - 1);
  if (running > 0) return;
  lastEnded = performance.now();
  arm();
});

function arm(): void {
  clearTimeout(timer);
  // unref: a file that ends cleanly must not be kept alive by its own guard.
  timer = setTimeout(() => {
    process.stderr.write(
      `test file still running ${limitMs / 1000} s after ${lastEnded ? 'its last test ended' : 'it started, with no test run yet'}; ` +
        `open handles: ${process.getActiveResourcesInfo().join(', ')}\n`,
    );
    stopped = true;
    process.exit(1);
  }, limitMs).unref();
}

arm();
