// A process running a job engine for the crash tests: it processes queue "crash", writing
// "start <jobId> <pid>" and, once the file named by GO exists, "done <jobId> <pid>" to LOG.
// With ENQUEUE set it first enqueues that job id. With POISON set, running a job kills this
// process (SIGKILL, as a crash would), and a job given up is written "gaveup <jobId> <message>".
// Killed with SIGKILL by the test.
import fs from 'node:fs';
import { pino } from 'pino';
import { DistributedJobEngine } from '../../src/jobs/distributed.ts';
import { EmbeddedJobEngine } from '../../src/jobs/embedded.ts';

const { KIND, FILE, REDIS_URL, PREFIX, LOG, GO, ENQUEUE, POISON } = process.env;
const log = pino({ level: 'silent' });
const engine = KIND === 'embedded'
  ? new EmbeddedJobEngine({ file: FILE!, log, pollMs: 50, leaseMs: Number(process.env.LEASE_MS ?? 1000) })
  : new DistributedJobEngine({ redisUrl: REDIS_URL!, keyPrefix: PREFIX!, log, leaseMs: 2000 });
const write = (line: string) => fs.appendFileSync(LOG!, `${line}\n`);

engine.process<{ n: number }>('crash', async (job) => {
  write(`start ${job.id} ${process.pid}`);
  if (POISON) process.kill(process.pid, 'SIGKILL');
  while (!fs.existsSync(GO!)) await new Promise((r) => setTimeout(r, 20));
  write(`done ${job.id} ${process.pid}`);
}, {
  concurrency: 1,
  timeoutMs: Number(process.env.TIMEOUT_MS ?? 60_000),
  onFailed: async (job, err) => write(`gaveup ${job.id} ${err.message}`),
});
if (ENQUEUE) await engine.enqueue('crash', { n: 1 }, { jobId: ENQUEUE });
write(`ready ${process.pid}`);
process.on('SIGTERM', () => void engine.close().then(() => process.exit(0)));
