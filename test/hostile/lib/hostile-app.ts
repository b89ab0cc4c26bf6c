// A real, listening instance of the service for hostile-input tests: the lead's pipeline
// (createApp: body limits, OpenAPI validation, error renderer) on in-memory SQLite, with
// the real scan handlers in the table and a fake site scanner behind them, so a request
// that passes validation exercises the real service code without leaving the machine.
// Every egress is pointed at a closed local port, so nothing can reach the network even
// if a handler that is landed later tries to.
import { answerClientErrors } from '../../../src/http/client-error.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scanSite } from '../../../src/handlers/scanSite.ts';
import { getReport } from '../../../src/handlers/getReport.ts';
import { getBadge } from '../../../src/handlers/getBadge.ts';
import { attachCliVantage } from '../../../src/handlers/attachCliVantage.ts';
import type { Resolver, SiteScanner } from '../../../src/scans/types.ts';
import { testApp, type TestApp } from '../../helpers/app.ts';
import { cannedReport, evidenceFor } from '../../scan-api/fixtures.ts';

export interface HostileApp extends TestApp {
  url: string;
  server: http.Server;
  /** How many times the fake scanner was asked to scan. */
  scans: string[];
}

/** Any name resolves to one public documentation-free address; nothing is contacted. */
export const publicResolver: Resolver = async () => ({ ok: true, addresses: ['93.184.215.14'], source: 'static' });

export function countingScanner(): SiteScanner & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async scan(domain) {
      calls.push(domain);
      return { report: cannedReport(domain), evidence: evidenceFor(domain) };
    },
  };
}

const CLOSED = 'http://127.0.0.1:9';

/** `resolve: 'config'` uses the service's own resolver (SCAN_RESOLVE answers, then DNS). */
export async function hostileApp(env: Record<string, string> = {}, opts: { resolve?: Resolver | 'config' } = {}): Promise<HostileApp> {
  const scanner = countingScanner();
  const resolve = opts.resolve === 'config' ? undefined : (opts.resolve ?? publicResolver);
  // The real handler modules of the four scan operations, whether or not the table has
  // been switched over from its placeholders yet; every other operation uses the table.
  const t = await testApp({
    LOG_LEVEL: 'silent',
    NETWORK_A_PROXY: CLOSED,
    NETWORK_B_PROXY: CLOSED,
    RATE_LIMIT_PER_DOMAIN: '1000000/1',
    RATE_LIMIT_PER_IP: '1000000/1',
    ...env,
  }, { handlers: { scanSite, getReport, getBadge, attachCliVantage } }, { scanner, ...(resolve ? { scans: { resolve } } : {}) });
  const app = t.app;
  const server = http.createServer(app);
  answerClientErrors(server);
  server.headersTimeout = 5000;
  server.requestTimeout = 10000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...t,
    app,
    server,
    url,
    scans: scanner.calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}
