// `npm run bench:cli`: how long the bundled CLI (dist/cli.mjs) takes from spawn to its
// first byte of output, for `--version` and `--help` (the budget is 300 ms). Rebuilds the
// bundle first, measures the median over 20 spawns each (after 2 warm-ups), and rewrites
// its own block of bench/results.md. It asserts nothing.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'dist/cli.mjs');
const RUNS = 20;
const WARMUP = 2;

execFileSync(process.execPath, [path.join(root, 'scripts/build-cli.ts')], { stdio: 'inherit' });

/** Milliseconds from spawn() of `node <nodeArgs>` to the first stdout chunk, and to exit. */
function once(nodeArgs: string[]): Promise<{ first: number; exit: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = -1;
    const child = spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.once('data', () => (first = performance.now() - t0));
    child.stdout.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 && first >= 0 ? resolve({ first, exit: performance.now() - t0 }) : reject(new Error(`exit ${code}`))));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function measure(nodeArgs: string[]) {
  for (let i = 0; i < WARMUP; i++) await once(nodeArgs);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(nodeArgs));
  const firsts = runs.map((r) => r.first);
  return { first: median(firsts), max: Math.max(...firsts), exit: median(runs.map((r) => r.exit)) };
}

const version = await measure([cli, '--version']);
const help = await measure([cli, '--help']);
// An ES module that prints one byte and nothing else: the floor no CLI can beat, measured the same way.
const floorFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ar-bench-')), 'floor.mjs');
fs.writeFileSync(floorFile, "process.stdout.write('1');\n");
const floor = await measure([floorFile]);
fs.rmSync(path.dirname(floorFile), { recursive: true, force: true });
const entryKb = (fs.statSync(cli).size / 1024).toFixed(1);
const chunksKb = (fs.readdirSync(path.join(root, 'dist/cli-chunks')).reduce((n, f) => n + fs.statSync(path.join(root, 'dist/cli-chunks', f)).size, 0) / 1024).toFixed(0);
const cpu = os.cpus();
const ms = (x: number) => `${x.toFixed(0)} ms`;

const block = `<!-- bench:cli:start -->
## CLI start-up (\`npm run bench:cli\`)

Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpu.length} × ${cpu[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, Node ${process.version}.
Spawn of \`node dist/cli.mjs …\` to its first byte on stdout, median of ${RUNS} runs after ${WARMUP} warm-ups. Budget: 300 ms.
The entry file is ${entryKb} KiB; the scan machinery (${chunksKb} KiB of chunks) is loaded only by \`scan\`.

| command | first output (median) | first output (max) | exit (median) |
|---|---|---|---|
| \`--version\` | ${ms(version.first)} | ${ms(version.max)} | ${ms(version.exit)} |
| \`--help\` | ${ms(help.first)} | ${ms(help.max)} | ${ms(help.exit)} |
| a one-line module printing one byte (floor) | ${ms(floor.first)} | ${ms(floor.max)} | ${ms(floor.exit)} |
<!-- bench:cli:end -->`;

const file = path.join(root, 'bench/results.md');
const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmark results\n';
const pattern = /<!-- bench:cli:start -->[\s\S]*?<!-- bench:cli:end -->/;
fs.writeFileSync(file, pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`);
console.log(block);
