// Builds the running service from a parsed Config: logger, database (migrated), context,
// app, listener. Also used by tests and benchmarks that want a real listening instance.
import { answerClientErrors } from './http/client-error.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { openapiDocument } from '../generated/openapi.ts';
import { createApp } from './app.ts';
import { BatchedLogDestination } from './log/destination.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { startServices, type ServiceOptions } from './services.ts';
import { createDb, migrate } from './storage/db.ts';

export async function buildContext(config: Config, log?: Logger): Promise<AppContext> {
  const db = createDb(config.databaseUrl);
  await migrate(db);
  return {
    config,
    db,
    log: log ?? pino({ level: config.logLevel, base: { service: 'agent-readiness' } }, new BatchedLogDestination()),
    spec: openapiDocument,
    now: () => new Date(),
  };
}

export interface RunningService {
  ctx: AppContext;
  server: http.Server;
  url: string;
  /** Stops accepting connections, lets requests in flight finish (up to graceMs), closes the database. */
  close(graceMs?: number): Promise<void>;
}

export async function startService(config: Config, log?: Logger, options: ServiceOptions = {}): Promise<RunningService> {
  const ctx = await buildContext(config, log);
  // The workers wait for the listener: under load, loading the job engine and re-enqueueing open
  // batch items and deliveries before listening delayed the first answer (test/api/lifecycle).
  const services = startServices(ctx, { deferWorkers: true, ...options });
  const app = createApp(ctx, services);
  const server = http.createServer(app);
  answerClientErrors(server);
  // A scan can take up to the deadline; keep the socket open at least that long.
  server.requestTimeout = config.scanDeadlineMs + 15000;
  server.headersTimeout = 20000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  let closing: Promise<void> | undefined;
  // After the current turn, so whoever awaits this (start.ts logs "listening") runs first; never after a close began.
  setImmediate(() => {
    if (!closing) services.startWorkers();
  });
  return {
    ctx,
    server,
    url,
    close(graceMs = config.scanDeadlineMs + 5000) {
      closing ??= (async () => {
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Progress streams would hold their connections open: those whose scan is not running end now, the others with their scan.
        services.progress.drain();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await done;
        clearTimeout(timer);
        await services.stop();
        await ctx.db.destroy();
        ctx.log.flush(); // the log's pending batch (src/log/destination.ts)
      })();
      return closing;
    },
  };
}
