// The service's composition root in a child process, for the crash test: startServices from
// the environment exactly as src/main.js configures it (NETWORK_A_PROXY, SCAN_RESOLVE and
// NODE_EXTRA_CA_CERTS from the test world; the embedded job engine beside the SQLite file),
// without the HTTP server. With SEND set (JSON of a send() argument) it sends that event first
// (writing the active watch it belongs to when the database has none).
// Its log (debug, one JSON line each) goes to LOG_FILE; "ready <pid>" is logged once started.
// The test SIGKILLs it.
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { buildContext } from '../../src/server.ts';
import { startServices } from '../../src/services.ts';
import { watchRow } from './watch-rows.ts';

const log = pino({ level: 'debug' }, pino.destination({ dest: process.env.LOG_FILE!, sync: true }));
const ctx = await buildContext(loadConfig(process.env), log);
const services = startServices(ctx, { mailer: false, batches: false });
if (process.env.SEND) {
  const send = JSON.parse(process.env.SEND) as Parameters<typeof services.webhooks.send>[0];
  // Deliveries go to active watches only: the watch the event belongs to, as its confirmation left it.
  if (!(await ctx.db('watches').where({ id: send.watchId }).first())) await watchRow(ctx.db, 'active', { id: send.watchId });
  await services.webhooks.send(send);
}
log.info(`ready ${process.pid}`);
process.on('SIGTERM', () => void services.stop().then(() => ctx.db.destroy()).then(() => process.exit(0)));
