// The service proper, after main.js has turned the compile cache on: parse the configuration
// once, start the service, stop cleanly on SIGTERM.
import { ConfigError, loadConfig, type Config } from './config.ts';
import { startService } from './server.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`agent-readiness: ${err.message}`);
    process.exit(1);
  }
  throw err;
}

const service = await startService(config);
service.ctx.log.info({ url: service.url, baseUrl: config.baseUrl, database: config.databaseUrl.split(':')[0] }, 'listening');

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    service.ctx.log.info({ signal }, 'shutting down: finishing requests in flight');
    service.close().then(
      () => process.exit(0),
      (err) => {
        service.ctx.log.error({ err }, 'unclean shutdown');
        process.exit(1);
      },
    );
  });
}
