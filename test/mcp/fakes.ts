/**
 * In-memory stand-ins for the services our MCP tools call, served through the service's real
 * app (createApp) in either pipeline; production wires the real services in src/services.ts.
 */
import type express from 'express';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { pino } from 'pino';
import { openapiDocument } from '../../generated/openapi.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import type { McpDeps, ScanSiteInput, ServiceResult } from '../../src/mcp/index.ts';
import type { SiteScanner } from '../../src/scans/types.ts';
import { startServices } from '../../src/services.ts';

export const KNOWN_SCAN_ID = '5b0c7a52-9a0e-4f7e-8d7c-2a4c1f0e9b11';

export interface FakeDeps extends McpDeps {
  scans: ScanSiteInput[];
}

export function fakeDeps(overrides: Partial<McpDeps> = {}): FakeDeps {
  const scans: ScanSiteInput[] = [];
  return {
    scans,
    baseUrl: 'http://127.0.0.1',
    async scanSite(input): Promise<ServiceResult> {
      scans.push(input);
      if (input.domain === 'limited.example') {
        return { ok: false, status: 429, body: { error: 'Too many scans of this domain; wait a minute.', retryAfterSeconds: 42 } };
      }
      if (input.lead.email.endsWith('@example.invalid')) {
        return { ok: false, status: 400, body: { error: 'The contact email cannot receive mail.', hint: 'Use a working address.' } };
      }
      return { ok: true, status: 200, body: { scanId: KNOWN_SCAN_ID, domain: input.domain, headline: 'open', score: { value: 91 } } };
    },
    async getReport(scanId) {
      return scanId === KNOWN_SCAN_ID ? { scanId, domain: 'example.com', headline: 'open' } : null;
    },
    listChecks() {
      return { rubricVersion: 'rubric-v1.1', checks: [{ id: 'robots.present', name: 'robots.txt present' }] };
    },
    ...overrides,
  };
}

/** Both pipelines production and development run: response validation on (development) and off with the input-less fast path (production). */
export const PIPELINES = ['development', 'production'] as const;
export type Pipeline = (typeof PIPELINES)[number];

// The MCP services under test are the fakes above; a storage access here would be a wiring bug.
const NO_STORAGE = new Proxy({}, { get(_t, prop) { throw new Error(`the MCP tests' services never touch storage (touched ${String(prop)})`); } }) as Knex;
const NEVER_SCANS: SiteScanner = { scan: () => Promise.reject(new Error('the MCP tests scan through their fake scan_site')) };

/** The service's real app (createApp: body reader, validator, error renderer, handler table) with fake MCP services. */
export function mcpApp(deps: McpDeps, pipeline: Pipeline = 'development'): express.Express {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:', BASE_URL: deps.baseUrl, NETWORK_A_PROXY: 'http://127.0.0.1:9',
    VALIDATE_RESPONSES: pipeline === 'development' ? 'true' : 'false', NODE_ENV: pipeline === 'production' ? 'production' : 'test',
  });
  const ctx: AppContext = { config, db: NO_STORAGE, log: pino({ level: 'silent' }), spec: openapiDocument, now: () => new Date() };
  // Workers never start: the MCP router needs none, and nothing stops this app, so a started
  // job engine and batch reconciler would hold the test process open after its last test.
  return createApp(ctx, startServices(ctx, { mailer: false, scanner: NEVER_SCANS, mcp: deps, deferWorkers: true }));
}

/** Listens on 127.0.0.1 with baseUrl pointing at the chosen port. */
export async function listen(overrides: Partial<McpDeps> = {}, pipeline: Pipeline = 'development'): Promise<{ url: string; deps: FakeDeps; close(): Promise<void> }> {
  const deps = fakeDeps(overrides);
  let app: express.Express | undefined;
  const server: Server = await new Promise((resolve) => { const s = http.createServer((req, res) => app!(req, res)).listen(0, '127.0.0.1', () => resolve(s)); });
  const { port } = server.address() as AddressInfo;
  deps.baseUrl = `http://127.0.0.1:${port}`;
  app = mcpApp(deps, pipeline);
  return {
    url: `${deps.baseUrl}/mcp`,
    deps,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
