/** In-memory stand-ins for the services our MCP tools call; the lead wires the real ones. */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createMcpRouter } from '../../src/mcp/index.ts';
import type { McpDeps, ScanSiteInput, ServiceResult } from '../../src/mcp/index.ts';

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

export function mcpApp(deps: McpDeps): express.Express {
  const app = express();
  app.set('trust proxy', false);
  app.use(createMcpRouter(deps));
  return app;
}

/** Listens on 127.0.0.1 with baseUrl pointing at the chosen port. */
export async function listen(overrides: Partial<McpDeps> = {}): Promise<{ url: string; deps: FakeDeps; close(): Promise<void> }> {
  const deps = fakeDeps(overrides);
  const app = mcpApp(deps);
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const { port } = server.address() as AddressInfo;
  deps.baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: `${deps.baseUrl}/mcp`,
    deps,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
