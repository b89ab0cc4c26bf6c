// `npm run fuzz [-- RUNS [SEED]]`: the property-based hostile-input suite with many more
// runs per operation than CI's 300 (default 5000). A failure prints fast-check's seed
// and path; pass the seed back to replay it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const [runs = '5000', seed] = process.argv.slice(2);
if (!/^\d+$/.test(runs) || (seed !== undefined && !/^-?\d+$/.test(seed))) {
  console.error('usage: npm run fuzz -- [RUNS] [SEED]');
  process.exit(2);
}
console.log(`fuzz: ${runs} runs per operation${seed ? `, seed ${seed}` : ''}`);
const result = spawnSync(process.execPath, ['scripts/run-tests.ts', 'test/hostile/fuzz.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_VERBOSE: '1', ...(seed ? { FUZZ_SEED: seed } : {}) },
});
process.exit(result.status ?? 1);
