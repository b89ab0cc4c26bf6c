// Grading by intent on every surface (issue 36 item 7): ScanRequest.intent through the scan service
// (validation, the coalescing key), POST /scan, the web form's advanced options and the MCP
// scan_site tool. Each bad value is a clear 400 in the contract's words, never a 5xx.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { AppError } from '../../src/errors.ts';
import { coalesceKey } from '../../src/net/domain.ts';
import { intentKey } from '../../src/scanner/intent-request.ts';
import type { ScanReportBody } from '../../src/scans/types.ts';
import { openTestDb, type TestDb } from '../storage/databases.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { buildService } from './build.ts';
import { fakeResolver, fakeScanner, type FakeScanner } from './fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@intent-site.com' };
const ip = '198.51.100.8';

/** A fake scanner whose report carries a judged intent when one was asked, as the engine's does. */
function judgingScanner(): FakeScanner {
  const base = fakeScanner();
  return {
    ...base,
    async scan(domain, opts) {
      const out = await base.scan(domain, opts);
      if (opts.intent) {
        out.report.intent = {
          roles: Object.entries(opts.intent).map(([role, wanted]) => ({ role: role as 'training', wanted: wanted!, robotsSays: 'block' as const, edgeDoes: 'block' as const, asIntended: wanted === 'block', decidedAgents: ['GPTBot'], missed: wanted === 'block' ? [] : ['GPTBot'], fix: wanted === 'block' ? null : { text: 'Allow GPTBot.', robotsTxt: 'User-agent: GPTBot\nAllow: /', platform: null, docUrl: null } })),
          asIntended: { met: opts.intent.training === 'block' ? 1 : 0, decided: Object.keys(opts.intent).length },
        };
      }
      return out;
    },
  };
}

/** Bad intents and the words the 400 must carry. */
const BAD: ReadonlyArray<[string, unknown, RegExp]> = [
  ['an unknown wish', { training: 'maybe' }, /`intent\.training` must be one of allow, block, charge\./],
  ['an unknown role', { robots: 'block' }, /`intent` has no role `robots`; the roles are training, search, user-fetch and archive\./],
  ['no role at all', {}, /`intent` names no role/],
  ['a string instead of roles', 'block', /`intent` must be object/],
  ['a wish of the wrong type', { search: true }, /`intent\.search` must be (one of allow, block, charge\.|string)/],
];

describe('intent through the scan service', () => {
  let t: TestDb;
  before(async () => { t = await openTestDb('sqlite'); });
  after(async () => { await t.close(); });

  test('the coalescing key holds the intent in one canonical order; no intent keeps the old key', () => {
    assert.equal(coalesceKey('a.com', null, intentKey(undefined)), 'site:a.com:auto');
    assert.equal(intentKey({ search: 'allow', training: 'block' }), intentKey({ training: 'block', search: 'allow' }));
    assert.notEqual(coalesceKey('a.com', null, intentKey({ training: 'block' })), coalesceKey('a.com', null, intentKey({ training: 'allow' })));
  });

  test('the same domain with another intent is scanned again; the same intent (in any key order) coalesces', async () => {
    const scanner = fakeScanner();
    const svc = buildService({ db: t.db, scanner, perDomain: { points: 10, durationS: 60 } });
    const first = await svc.scan({ domain: 'intent-coalesce.com', lead, clientIp: ip, intent: { training: 'block', search: 'allow' } });
    const same = await svc.scan({ domain: 'intent-coalesce.com', lead, clientIp: ip, intent: { search: 'allow', training: 'block' } });
    assert.equal(same.body.coalesced, true);
    assert.equal(same.body.scanId, first.body.scanId);
    const other = await svc.scan({ domain: 'intent-coalesce.com', lead, clientIp: ip, intent: { training: 'allow', search: 'allow' } });
    assert.equal(other.body.coalesced, false);
    const none = await svc.scan({ domain: 'intent-coalesce.com', lead, clientIp: ip });
    assert.equal(none.body.coalesced, false, 'a scan without an intent does not take a report judged against one');
    assert.equal(scanner.calls.length, 3);
    assert.deepEqual(scanner.intents, [{ training: 'block', search: 'allow' }, { training: 'allow', search: 'allow' }, undefined], 'the engine is told each intent');
  });

  for (const [what, intent, words] of BAD) {
    test(`${what} is a 400 that says what is wrong, before anything is scanned`, async () => {
      const scanner = fakeScanner();
      const svc = buildService({ db: t.db, scanner });
      await assert.rejects(svc.scan({ domain: 'intent-bad.com', lead, clientIp: ip, intent }), (e: unknown) => {
        assert.ok(e instanceof AppError && e.status === 400, String(e));
        assert.match(e.body.error, words);
        assert.match(e.body.hint ?? '', /allow, block or charge/);
        return true;
      });
      assert.equal(scanner.calls.length, 0);
    });
  }
});

describe('intent over HTTP, the form and MCP', () => {
  let t: TestApp;
  const scanner = judgingScanner();
  before(async () => {
    t = await testApp({ RATE_LIMIT_PER_DOMAIN: '20/60', RATE_LIMIT_PER_IP: '100/60' }, {}, { scanner, scans: { resolve: fakeResolver() } });
  });
  after(async () => { await t.close(); });

  test('POST /scan takes an intent and answers with report.intent, which the archive keeps', async () => {
    const res = await request(t.app).post('/scan').send({ domain: 'intent-api.com', lead, intent: { training: 'block', 'user-fetch': 'allow' } }).expect(200).expect(conforms);
    assert.deepEqual(scanner.intents.at(-1), { training: 'block', 'user-fetch': 'allow' });
    assert.deepEqual((res.body as ScanReportBody).intent?.asIntended, { met: 1, decided: 2 });
    const archived = await request(t.app).get(`/r/${res.body.scanId}`).set('Accept', 'application/json').expect(200);
    assert.deepEqual(archived.body.intent, res.body.intent);
    const page = await request(t.app).get(`/r/${res.body.scanId}`).set('Accept', 'text/html').expect(200);
    assert.ok(page.text.indexOf('id="intent"') > 0 && page.text.indexOf('id="intent"') < page.text.indexOf('id="agents"'), 'What you asked for comes before the agent grid');
  });

  for (const [what, intent] of BAD) {
    test(`POST /scan with ${what}: 400 in the Error shape`, async () => {
      const res = await request(t.app).post('/scan').send({ domain: 'intent-api.com', lead, intent }).expect(400).expect(conforms);
      assert.equal(typeof res.body.error, 'string');
      assert.match(JSON.stringify(res.body), /intent/);
    });
  }

  test('the form offers the four roles under advanced options and passes the chosen wishes on', async () => {
    const home = await request(t.app).get('/').set('Accept', 'text/html').expect(200);
    for (const role of ['training', 'search', 'user-fetch', 'archive']) assert.match(home.text, new RegExp(`<select id="f-intent-${role}" name="intent-${role}"><option value="">no wish</option><option value="allow">`));
    assert.match(home.text, /<details id="advanced"><summary>Advanced options<\/summary>/);
    assert.match(home.text, /<fieldset><legend>What you want AI agents to get<\/legend>/);
    const fields = { domain: 'intent-form.com', name: lead.name, email: lead.email, 'intent-training': 'block', 'intent-search': '', 'intent-archive': 'charge' };
    await request(t.app).post('/').type('form').set('Accept', 'text/html').send(new URLSearchParams(fields).toString()).expect(303).expect(conforms);
    assert.deepEqual(scanner.intents.at(-1), { training: 'block', archive: 'charge' }, 'an empty select is no wish');
  });

  test('a forged wish in the form comes back as the form (400) in the form\'s words, with the choices kept', async () => {
    const before = scanner.calls.length;
    const fields = { domain: 'intent-form.com', name: lead.name, email: lead.email, 'intent-training': '<script>x</script>', 'intent-search': 'allow' };
    const res = await request(t.app).post('/').type('form').set('Accept', 'text/html').send(new URLSearchParams(fields).toString()).expect(400).expect(conforms);
    assert.match(res.text, /<p>What training crawlers get must be one of allow, block, charge\.<\/p><p class="muted">Choose allow, block, charge or &quot;no wish&quot; under Advanced options\.<\/p>/);
    assert.doesNotMatch(res.text, /<script>x<\/script>/, 'the forged value is never echoed as markup');
    assert.match(res.text, /<details id="advanced" open>/);
    assert.match(res.text, /name="intent-search"><option value="">no wish<\/option><option value="allow" selected>/);
    assert.equal(scanner.calls.length, before);
  });

  test('MCP scan_site takes an intent; a bad one is an isError result with the same words', async () => {
    const rpc = (args: Record<string, unknown>) => request(t.app).post('/mcp').set('Content-Type', 'application/json').set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'scan_site', arguments: { domain: 'intent-mcp.com', name: lead.name, email: lead.email, ...args } } });
    const ok = await rpc({ intent: { training: 'allow' } }).expect(200);
    assert.equal(ok.body.result.isError, undefined, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.result.structuredContent.intent.roles.map((r: { role: string; wanted: string }) => [r.role, r.wanted]), [['training', 'allow']]);
    assert.deepEqual(scanner.intents.at(-1), { training: 'allow' });
    const bad = await rpc({ intent: { training: 'sometimes' } }).expect(200);
    assert.equal(bad.body.result.isError, true);
    assert.match(JSON.stringify(bad.body.result.content), /`intent\.training` must be one of allow, block, charge\./);
  });
});
