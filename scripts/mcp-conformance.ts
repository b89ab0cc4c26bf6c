/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
 * Node >= 22) against our /mcp router mounted on fake services.
 *
 *   npx node scripts/mcp-conformance.ts
 *
 * The server lives in this process, so nothing outlives the run. Exit code is
 * the suite's: non-zero when a scenario outside test/mcp/conformance-baseline.yaml
 * fails, or when a baselined one starts passing (the baseline must shrink then).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { listen } from '../test/mcp/fakes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const srv = await listen();
const child = spawn('npx', ['--no-install', 'conformance', 'server', '--url', srv.url,
  '--expected-failures', 'test/mcp/conformance-baseline.yaml', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
const code: number = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
await srv.close();
process.exit(code);
