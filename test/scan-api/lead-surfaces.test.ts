// The lead rules have one source (the contract's Lead schema through its generated validator),
// and every surface words a broken rule the same way: POST /scan, POST /scan-mcp, the MCP
// scan_site tool over /mcp, and the CLI's own check before it contacts the service.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { parseCli } from '../../src/cli/args.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { fakeResolver, fakeScanner } from './fixtures.ts';

const CASES: Array<[string, { name?: unknown; email?: unknown; phone?: unknown; role?: unknown }, string]> = [
  ['missing email', { name: 'Ada Lovelace' }, '`lead.email` is required.'],
  ['one-letter name', { name: 'A', email: 'ada@example.com' }, '`lead.name` must be 2 to 120 characters.'],
  ['email without a domain', { name: 'Ada Lovelace', email: 'ada@' }, '`lead.email` must be an email address of at most 254 characters.'],
  ['email of 255 characters', { name: 'Ada Lovelace', email: `${'a'.repeat(243)}@example.com` }, '`lead.email` must be an email address of at most 254 characters.'],
  ['phone with letters', { name: 'Ada Lovelace', email: 'ada@example.com', phone: 'call me' }, '`lead.phone` may hold only digits, spaces and + ( ) - ., 7 to 25 characters with at least 7 digits.'],
  ['phone with six digits', { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 23-456' }, '`lead.phone` may hold only digits, spaces and + ( ) - ., 7 to 25 characters with at least 7 digits.'],
  ['role of 81 characters', { name: 'Ada Lovelace', email: 'ada@example.com', role: 'r'.repeat(81) }, '`lead.role` must be a string of at most 80 characters.'],
];

describe('one lead policy on every surface', () => {
  let t: TestApp;
  before(async () => { t = await testApp({ RATE_LIMIT_PER_IP: '1000/60' }, {}, { scanner: fakeScanner(), scans: { resolve: fakeResolver() } }); });
  after(() => t.close());

  for (const [name, lead, message] of CASES) {
    test(`a lead with ${name} gets "${message}" from REST, /scan-mcp, the MCP tool and the CLI`, async () => {
      const rest = await request(t.app).post('/scan').send({ domain: 'example.com', lead }).expect(400).expect(conforms);
      assert.equal(rest.body.error, message);
      assert.ok(rest.body.required?.lead, 'the lead gate names the shape');

      const mcpScan = await request(t.app).post('/scan-mcp').send({ target: 'example.com', lead }).expect(400).expect(conforms);
      assert.equal(mcpScan.body.error, message);

      const tool = await request(t.app).post('/mcp').set('Content-Type', 'application/json').send(JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'scan_site', arguments: { domain: 'example.com', ...lead } },
      })).expect(200);
      assert.equal(tool.body.result.isError, true);
      const said = JSON.stringify(tool.body.result.content);
      // A missing field is caught by the tool's declared input schema (name and email are
      // `required` there, for clients); every rule on a value is worded by the lead policy.
      if (lead.email === undefined) assert.match(said, /at email/);
      else assert.ok(said.includes(JSON.stringify(message).slice(1, -1)), said);

      if (lead.phone === undefined && lead.role === undefined) {
        const cli = parseCli(['scan', 'example.com', ...(lead.name ? ['--name', String(lead.name)] : []), ...(lead.email ? ['--email', String(lead.email)] : []), '--api', 'http://127.0.0.1:9'], {});
        if (lead.email === undefined) assert.equal(cli.kind, 'usage-error', 'the CLI refuses a missing email before contacting anyone');
        else assert.deepEqual(cli, { kind: 'usage-error', message });
      }
    });
  }
});
