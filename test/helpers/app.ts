// A real app on a real (in-memory SQLite) database for HTTP tests, configured the way an
// operator would: through the same environment variables, parsed by loadConfig.
import type { Express } from 'express';
import { pino } from 'pino';
import { createApp, type AppOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { buildContext } from '../../src/server.ts';
import { startServices, type AppServices, type ServiceOptions } from '../../src/services.ts';

export interface TestApp {
  app: Express;
  ctx: AppContext;
  services: AppServices;
  close(): Promise<void>;
}

export async function testApp(env: Record<string, string> = {}, options: AppOptions = {}, services: ServiceOptions = {}): Promise<TestApp> {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    BASE_URL: 'http://agent-readiness.test',
    VALIDATE_RESPONSES: 'true',
    // Without a test world, networkA would egress directly, and a public-looking test
    // address would then leave the machine. A closed local port makes such scans fail
    // fast (transport errors) instead; tests that scan pass the world's proxies.
    NETWORK_A_PROXY: 'http://127.0.0.1:9',
    ...env,
  });
  const ctx = await buildContext(config, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
  const running = startServices(ctx, { mailer: false, ...services });
  return {
    app: createApp(ctx, running, options),
    ctx,
    services: running,
    async close() {
      await running.stop();
      await ctx.db.destroy();
    },
  };
}
