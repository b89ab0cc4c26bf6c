/**
 * `npm run world [-- --latency 50]`: start the test world for manual use and
 * print the environment a service or CLI needs to scan it. Ctrl-C stops it.
 */
import { startWorld } from './index.ts';
import { SCENARIOS } from './scenarios/index.ts';

const args = process.argv.slice(2);
const i = args.indexOf('--latency');
const latencyMs = i >= 0 ? Number(args[i + 1]) : Number(process.env.WORLD_LATENCY_MS ?? 0);
const world = await startWorld({ latencyMs });

const lines = [
  `test world up (latency ${latencyMs} ms per response). Export these, then start the service or the CLI:`,
  '',
  ...Object.entries(world.env).map(([k, v]) => `export ${k}='${v}'`),
  '',
  'Sites (https://<name>.world-fixtures.com/):',
  ...SCENARIOS.map((s) => `  ${s.name.padEnd(28)} expects ${s.expect.headline.padEnd(18)} ${s.about}`),
  '',
  'networkA leaves from 127.0.0.2, networkB from 127.0.0.3, the CLI user network from 127.0.0.4.',
];
process.stdout.write(`${lines.join('\n')}\n`);

const stop = async () => {
  await world.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
