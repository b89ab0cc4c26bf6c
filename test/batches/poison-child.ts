// The real service (startService) on a SQLite file with the embedded engine, for the poison-item
// test: its scanner SIGKILLs this process whenever it scans a domain starting with "poison"
// (as a crashing engine would), and scans every other domain at once with the canned report.
// Each scan is written "scan <domain> <pid>" to LOG. Prints the service's URL on stdout.
import fs from 'node:fs';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/server.ts';
import { fakeResolver, fakeScanner } from '../scan-api/fixtures.ts';

const inner = fakeScanner();
const service = await startService(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' }), pino({ level: 'silent' }), {
  mailer: false,
  scans: { resolve: fakeResolver() },
  scanner: {
    async scan(domain, opts) {
      fs.appendFileSync(process.env.LOG!, `scan ${domain} ${process.pid}\n`);
      if (domain.startsWith('poison')) process.kill(process.pid, 'SIGKILL');
      return inner.scan(domain, opts);
    },
  },
});
process.stdout.write(`${service.url}\n`);
process.on('SIGTERM', () => void service.close(1000).then(() => process.exit(0)));
