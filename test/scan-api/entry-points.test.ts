// Every entry point that starts a scan judges the request by the contract (openapi.yaml) the same
// way, and every report any of them archives is a valid ScanReport. The surfaces: POST /scan
// (REST), POST / (the web form), the MCP tool scan_site, and the CLI (its scan and its upload),
// with the real engine against the test world and the real CLI bundle as a child process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { validateScanReport } from '../../generated/validators.js';
import { resolveHost } from '../../src/net/resolve.ts';
import { catalogLookup } from '../../src/scans/adapters.ts';
import { loadArchivedReport } from '../../src/scans/archive.ts';
import { buildCatalog } from '../../src/scanner/catalog.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { buildCli, runCli } from '../cli/harness.ts';
import type { TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { startWorld, type World } from '../world/index.ts';
import { scanApiApp } from './api-app.ts';

const LEAD = { name: 'Ada Lovelace', email: 'ada@world-fixtures.com' };
const PROFILE_RULE = '`profile` must be one of general, dev-platform, docs, publisher.';
const RUBRIC_RULE = '`rubric` must be one of rubric-v1.2, rubric-v1.1.';

describe('every scan entry point validates what the contract declares and archives valid reports', () => {
  let world: World;
  let t: TestApp;
  let server: http.Server;
  let api: string;
  let cli: ReturnType<typeof buildCli>;

  before(async () => {
    cli = buildCli();
    world = await startWorld();
    const { networkA, networkB } = world.egress();
    t = await scanApiApp({ RATE_LIMIT_PER_IP: '1000/60', RATE_LIMIT_PER_DOMAIN: '1000/1' }, {
      scanner: createScanner({ networks: { networkA, networkB }, deadlineMs: 20_000, probeTimeoutMs: 5000 }),
      catalog: catalogLookup(buildCatalog()),
      resolve: (host) => resolveHost(host, world.resolveOverrides, 2000),
    });
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    await t?.close();
    await world?.stop();
    cli?.cleanup();
  });

  const counts = async () => ({
    scans: Number((await t.ctx.db('scans').count({ n: '*' }).first())?.n ?? 0),
    mails: Number((await t.ctx.db('mail_outbox').count({ n: '*' }).first())?.n ?? 0),
  });
  const form = (fields: Record<string, string>) => request(t.app).post('/').set('Content-Type', 'application/x-www-form-urlencoded').set('Accept', 'text/html')
    .send(new URLSearchParams(fields).toString());
  const tool = (args: Record<string, unknown>) => request(t.app).post('/mcp').set('Content-Type', 'application/json').set('Accept', 'application/json, text/event-stream')
    .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'scan_site', arguments: args } }));

  test('a profile outside the Profile enum is refused by REST, the form and the MCP tool alike, before anything is scanned, archived or mailed', async () => {
    const domain = world.domain('open-basic');
    const before = await counts();
    for (const profile of ['anything', 'General', 'docs ', '']) {
      const rest = await request(t.app).post('/scan').send({ domain, lead: LEAD, profile }).expect(400).expect(conforms);
      assert.equal(rest.body.error, PROFILE_RULE, `REST ${JSON.stringify(profile)}`);

      const page = await form({ domain, ...LEAD, profile: `${profile}x` }).expect(400).expect(conforms);
      assert.match(page.headers['content-type']!, /text\/html/);
      assert.match(page.text, /<form method="post" action="\/"/, 'the form comes back');
      assert.ok(page.text.includes('Kind of site must be one of general, dev-platform, docs, publisher.'), page.text.slice(0, 400));
      assert.ok(page.text.includes(`value="${domain}"`), 'what was typed is kept');

      const mcp = await tool({ domain, ...LEAD, profile }).expect(200);
      assert.equal(mcp.body.result?.isError, true, JSON.stringify(mcp.body));
    }
    assert.deepEqual(await counts(), before, 'nothing archived, nothing mailed');
  });

  test('a rubric no scan can use (the preview, a retired or unknown one) is refused by REST (body and query), the form and the MCP tool alike, before anything is scanned', async () => {
    const domain = world.domain('open-basic');
    const before = await counts();
    for (const rubric of ['rubric-v1.3-preview', 'rubric-v1.2-preview', 'rubric-v1.0', 'RUBRIC-V1.1', '<b>x</b>']) {
      const rest = await request(t.app).post('/scan').send({ domain, lead: LEAD, rubric }).expect(400).expect(conforms);
      assert.equal(rest.body.error, RUBRIC_RULE, `REST ${JSON.stringify(rubric)}`);
      const query = await request(t.app).post('/scan').query({ rubric }).send({ domain, lead: LEAD }).expect(400).expect(conforms);
      assert.equal(query.body.error, RUBRIC_RULE, `REST ?rubric=${JSON.stringify(rubric)}`);
      const page = await form({ domain, ...LEAD, rubric }).expect(400).expect(conforms);
      assert.ok(page.text.includes('Rubric must be one of rubric-v1.2, rubric-v1.1.'), page.text.slice(0, 400));
      assert.ok(!page.text.includes('<b>x</b>'), 'what was typed is escaped');
      const mcp = await tool({ domain, ...LEAD, rubric }).expect(200);
      assert.equal(mcp.body.result?.isError, true, JSON.stringify(mcp.body));
    }
    // Body and query disagreeing is the caller's mistake, said as such; agreeing is fine.
    const both = await request(t.app).post('/scan').query({ rubric: 'rubric-v1.1' }).send({ domain, lead: LEAD, rubric: 'rubric-v1.2' }).expect(400).expect(conforms);
    assert.match(both.body.error, /body asks for rubric-v1.2 and the query for rubric-v1.1/);
    const twice = await request(t.app).post('/scan?rubric=rubric-v1.1&rubric=rubric-v1.2').send({ domain, lead: LEAD }).expect(400).expect(conforms);
    assert.equal(typeof twice.body.error, 'string');
    assert.deepEqual(await counts(), before, 'nothing archived, nothing mailed');
  });

  test('rubric-v1.1 asked for through REST (body and ?rubric=), the form and the MCP tool scores the report with it; the permalink keeps it after later default scans', async () => {
    const domain = world.domain('robots-partial');
    const body = await request(t.app).post('/scan').send({ domain, lead: LEAD, rubric: 'rubric-v1.1', fresh: true }).expect(200).expect(conforms);
    const query = await request(t.app).post('/scan?rubric=rubric-v1.1').send({ domain, lead: LEAD, fresh: true }).expect(200).expect(conforms);
    const posted = await form({ domain, ...LEAD, rubric: 'rubric-v1.1' }).expect(303);
    const mcp = await tool({ domain, ...LEAD, rubric: 'rubric-v1.1', fresh: true }).expect(200);
    for (const r of [body.body, query.body, mcp.body.result?.structuredContent]) assert.equal(r?.versions?.rubric, 'rubric-v1.1', 'the response names the rubric');
    assert.match(mcp.body.result?.content?.[0]?.text ?? '', /"rubric":"rubric-v1\.1"/, 'and so does the MCP tool\'s text');
    const ids = [body.body.scanId, query.body.scanId, /^\/r\/([0-9a-f-]{36})$/.exec(posted.headers.location!)?.[1], mcp.body.result?.structuredContent?.scanId] as string[];
    // A default scan right after is not served the rubric-v1.1 result from the coalescing window.
    const now = await request(t.app).post('/scan').send({ domain, lead: LEAD }).expect(200).expect(conforms);
    assert.equal(now.body.coalesced, false, 'a scan under another rubric is not the same scan');
    assert.equal(now.body.versions.rubric, 'rubric-v1.2');
    assert.equal(now.body.score.rubricVersion, 'rubric-v1.2');
    for (const id of ids) {
      assert.ok(id, 'each surface archived a report');
      const json = await request(t.app).get(`/r/${id}`).set('Accept', 'application/json').expect(200).expect(conforms);
      assert.equal(json.body.versions.rubric, 'rubric-v1.1', id);
      assert.equal(json.body.score.rubricVersion, 'rubric-v1.1', id);
      assert.equal(json.body.checks.length, 30, 'rubric-v1.1 has its 30 checks');
      const page = await request(t.app).get(`/r/${id}`).set('Accept', 'text/html').expect(200);
      assert.match(page.text, /rubric-v1\.1/, 'the permalink page names the rubric');
    }
    // The rubric-v1.1 report against the rubric-v1.2 one: the diff says the rubric changed and compares shared checks only.
    const diff = await request(t.app).get(`/r/${ids[0]}/diff/${now.body.scanId}`).set('Accept', 'application/json').expect(200).expect(conforms);
    assert.equal(diff.body.sameRubric, false);
    assert.equal(diff.body.score.delta, null);
    assert.match(diff.body.summary[0], /^The rubric changed \(rubric-v1\.1 → rubric-v1\.2\)/);
    const v11 = new Set((await request(t.app).get(`/r/${ids[0]}`).set('Accept', 'application/json')).body.checks.map((c: { id: string }) => c.id));
    for (const c of diff.body.checks as Array<{ id: string; before: unknown; after: unknown }>) {
      assert.ok(v11.has(c.id) && c.before !== null && c.after !== null, `${c.id} is a check both rubrics share`);
    }
  });

  test('REST, the form, the MCP tool and the CLI (scan and upload) each archive a report that validates against ScanReport', async () => {
    const rest = await request(t.app).post('/scan').send({ domain: world.domain('open-basic'), lead: LEAD, profile: 'docs' }).expect(200).expect(conforms);
    const posted = await form({ domain: world.domain('robots-partial'), ...LEAD, profile: 'publisher' }).expect(303);
    const formId = /^\/r\/([0-9a-f-]{36})$/.exec(posted.headers.location!)?.[1];
    const mcp = await tool({ domain: world.domain('robots-blocks-edge-open'), ...LEAD, profile: 'general' }).expect(200);
    const mcpId = (mcp.body.result?.structuredContent as { scanId?: string } | undefined)?.scanId;
    const run = await runCli(cli.cli, ['scan', world.domain('contradictory-llms'), '--name', LEAD.name, '--email', LEAD.email, '--api', api, '--profile', 'dev-platform', '--json'], {
      HTTPS_PROXY: world.proxies.user, NODE_EXTRA_CA_CERTS: world.caPath,
    });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { report: { scanId: string }; upload: { status: string } };
    assert.equal(out.upload.status, 'attached', 'the CLI uploaded its network');

    const ids = { rest: rest.body.scanId as string, form: formId, mcp: mcpId, cli: out.report.scanId };
    for (const [surface, id] of Object.entries(ids)) assert.ok(id, `${surface} archived a report`);
    // Every archived site report, as the public surfaces serve it (payload, link, attached vantage).
    const rows = await t.ctx.db('scans').where({ kind: 'site' }).select('id');
    assert.ok(rows.length >= 4);
    for (const { id } of rows as Array<{ id: string }>) {
      const archived = await loadArchivedReport(t.ctx.db, t.ctx.config.baseUrl, id);
      const ok = validateScanReport(archived!.report);
      assert.ok(ok, `${id}: ${JSON.stringify(validateScanReport.errors)}`);
      const json = await request(t.app).get(`/r/${id}`).set('Accept', 'application/json').expect(200).expect(conforms);
      assert.ok(validateScanReport(json.body), `${id} as served: ${JSON.stringify(validateScanReport.errors)}`);
    }
    const cliReport = await loadArchivedReport(t.ctx.db, t.ctx.config.baseUrl, ids.cli);
    assert.ok(cliReport?.cliVantage, 'the upload is part of what was checked');
    assert.deepEqual(
      await Promise.all(Object.values(ids).map(async (id) => (await loadArchivedReport(t.ctx.db, t.ctx.config.baseUrl, id!))?.report.profile)),
      ['docs', 'publisher', 'general', 'dev-platform'],
    );
  });
});
