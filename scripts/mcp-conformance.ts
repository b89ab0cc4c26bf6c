/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
 * Node >= 22) against our real /mcp: the service's own app (body limits, contract
 * validation, error renderer, handler table) on an in-memory database.
 *
 *   npx node scripts/mcp-conformance.ts
 *
 * The server lives in this process, so nothing outlives the run. Exit code is
 * the suite's: non-zero when a scenario outside test/mcp/conformance-baseline.yaml
 * fails, or when a baselined one starts passing (the baseline must shrink then).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { buildContext } from '../src/server.ts';
import { startServices } from '../src/services.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
// The suite never calls scan_site (it calls its own fixture tool names), and no scan may
// leave the machine anyway: networkA goes to a closed local port.
const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', BASE_URL: 'http://127.0.0.1', NETWORK_A_PROXY: 'http://127.0.0.1:9', LOG_LEVEL: 'warn' });
const ctx = await buildContext(config, pino({ level: 'warn' }));
const services = startServices(ctx, { mailer: false });
const server = http.createServer(createApp(ctx, services)).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

const child = spawn('npx', ['--no-install', 'conformance', 'server', '--url', url,
  '--expected-failures', 'test/mcp/conformance-baseline.yaml', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
const code: number = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
server.closeAllConnections();
server.close();
await services.stop();
await ctx.db.destroy();
process.exit(code);
