// The files our own origin publishes for crawlers and agents, through the real app.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { readRobots, robotsSays } from '../../src/scanner/robots.ts';
import { getRoster } from '../../src/scanner/roster.ts';
import { ROSTER_VERSION } from '../../src/scanner/versions.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { conforms } from '../helpers/contract.ts';
import { serverCardProblems } from '../../src/scanner/mcp-discovery.ts';

describe('our own origin files', () => {
  let t: TestApp;
  before(async () => { t = await testApp({ SECURITY_CONTACT: 'mailto:security@agent-readiness.test' }); });
  after(() => t.close());

  test('robots.txt names every roster agent in an explicit group that allows / and carries a Content-Signal', async () => {
    const res = await request(t.app).get('/robots.txt').expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /text\/plain/);
    const file = readRobots({ ok: true, status: 200, contentType: 'text/plain', body: res.text, edgeOutcome: 'pass' });
    for (const agent of getRoster(ROSTER_VERSION)) {
      const said = robotsSays(file, agent);
      assert.equal(said.group, agent.token.toLowerCase(), `${agent.token} has its own group`);
      assert.notEqual(said.says, 'blocked', agent.token);
    }
    assert.match(res.text, /^Content-Signal: search=yes, ai-input=yes, ai-train=yes$/m);
    assert.match(res.text, /^Sitemap: http:\/\/agent-readiness\.test\/sitemap\.xml$/m);
    // Every roster agent may fetch all of it, a shared report permalink included (the page's
    // noindex keeps it out of indexes); only agents outside the roster are asked to skip /internal/.
    for (const agent of getRoster(ROSTER_VERSION)) {
      assert.equal(robotsSays(file, agent).says, 'allowed', `${agent.token} on /`);
      assert.equal(robotsSays(file, agent, '/r/00000000-0000-4000-8000-000000000000').says, 'allowed', `${agent.token} on a permalink`);
    }
    assert.equal(robotsSays(file, { token: 'SomeOtherBot' }, '/internal/stats').says, 'blocked');
    assert.equal((res.text.match(/^Content-Signal: /gm) ?? []).length, 2, 'the AI agents group carries the signal too');
  });

  test('sitemap.xml lists the public documents', async () => {
    const res = await request(t.app).get('/sitemap.xml').expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /application\/xml/);
    for (const p of ['/', '/methodology.md', '/llms.txt', '/openapi.json']) assert.ok(res.text.includes(`<loc>http://agent-readiness.test${p}</loc>`), p);
  });

  test('security.txt has a Contact, a future Expires and its Canonical URL (RFC 9116)', async () => {
    const res = await request(t.app).get('/.well-known/security.txt').expect(200).expect(conforms);
    assert.match(res.text, /^Contact: mailto:security@agent-readiness\.test$/m);
    const expires = /^Expires: (.+)$/m.exec(res.text)?.[1];
    assert.ok(expires && Date.parse(expires) > Date.now(), `Expires ${expires}`);
    assert.match(res.text, /^Canonical: http:\/\/agent-readiness\.test\/\.well-known\/security\.txt$/m);
  });

  test('the API catalog is an RFC 9727 linkset pointing at the OpenAPI description', async () => {
    const res = await request(t.app).get('/.well-known/api-catalog').expect(200).expect(conforms);
    assert.match(res.headers['content-type']!, /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"/);
    const doc = JSON.parse(res.text) as { linkset: Array<Record<string, Array<{ href: string }>>> };
    assert.equal(doc.linkset[0]!['service-desc']![0]!.href, 'http://agent-readiness.test/openapi.json');
  });

  test('the MCP server card at the SEP-2127 path has the SEP-2127 shape and names the same endpoint and version as the SEP-1649 manifest', async () => {
    const card = await request(t.app).get('/.well-known/mcp/server-card.json').expect(200).expect(conforms);
    const manifest = await request(t.app).get('/.well-known/mcp.json').expect(200);
    assert.equal(card.body.$schema, 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json');
    // Valid against the extension's own schema (pinned in src/scanner/data/, checked against its examples).
    assert.deepEqual(serverCardProblems(card.body), []);
    assert.equal(card.body.name, 'test.agent-readiness/agent-readiness', 'reverse-DNS of the origin host');
    assert.equal(card.body.version, manifest.body.serverInfo.version);
    assert.ok(card.body.description.length >= 1 && card.body.description.length <= 100);
    assert.deepEqual(card.body.remotes.map((r: { type: string; url: string }) => [r.type, r.url]), [['streamable-http', manifest.body.url]]);
    assert.equal(card.headers['access-control-allow-origin'], '*');
  });

  test('the MCP catalog lists our card at <endpoint>/server-card, which serves the same card as application/mcp-server-card+json (issue 37 item 1)', async () => {
    const catalog = await request(t.app).get('/.well-known/mcp/catalog.json').expect(200).expect(conforms);
    assert.equal(catalog.headers['access-control-allow-origin'], '*');
    assert.match(catalog.headers['cache-control']!, /public, max-age=3600/);
    assert.equal(catalog.body.specVersion, 'draft');
    assert.deepEqual(catalog.body.entries.map((e: { type: string; url: string }) => [e.type, e.url]), [['application/mcp-server-card+json', 'http://agent-readiness.test/mcp/server-card']]);
    // The identifier's name segment is the part of the card's name after the slash (docs/discovery.md).
    const card = await request(t.app).get('/mcp/server-card').set('Accept', 'application/mcp-server-card+json').expect(200).expect(conforms);
    assert.match(card.headers['content-type']!, /^application\/mcp-server-card\+json/);
    const legacy = await request(t.app).get('/.well-known/mcp/server-card.json').expect(200);
    assert.deepEqual(JSON.parse(card.text), legacy.body);
    assert.equal(catalog.body.entries[0].identifier.split(':').pop(), legacy.body.name.split('/')[1]);
    // As an abuser would: odd queries and other methods get the contract's answers, never a 5xx.
    assert.deepEqual(JSON.parse((await request(t.app).get(`/mcp/server-card?x=${'%3Cscript%3E'.repeat(200)}`).expect(200)).text), legacy.body);
    for (const path of ['/mcp/server-card', '/.well-known/mcp/catalog.json']) {
      const res = await request(t.app).post(path).send({ a: 1 });
      assert.ok(res.status >= 400 && res.status < 500, `POST ${path}: ${res.status}`);
    }
    // The MCP endpoint itself is untouched: GET /mcp still answers as the transport does.
    assert.notEqual((await request(t.app).get('/mcp')).status, 200);
  });

  test('the ARD catalog lists the MCP server card and the OpenAPI description, under ard.json and the older ai-catalog.json', async () => {
    const ard = await request(t.app).get('/.well-known/ard.json').expect(200).expect(conforms);
    const old = await request(t.app).get('/.well-known/ai-catalog.json').expect(200).expect(conforms);
    assert.deepEqual(old.body.entries, ard.body.entries);
    const urls = ard.body.entries.map((e: { url: string }) => e.url);
    assert.deepEqual(urls, ['http://agent-readiness.test/mcp/server-card', 'http://agent-readiness.test/openapi.json']);
    for (const e of ard.body.entries) {
      assert.match(e.identifier, /^urn:air:[^:]+:[^:]+:.+/);
      assert.ok(e.representativeQueries.length >= 2 && e.representativeQueries.length <= 5);
      await request(t.app).get(new URL(e.url).pathname).expect(200); // every entry resolves
    }
  });

  test('GET / links its machine descriptions in Link headers', async () => {
    const res = await request(t.app).get('/').expect(200);
    assert.match(res.headers.link!, /<\/openapi\.json>; rel="service-desc"/);
    assert.match(res.headers.link!, /<\/methodology\.md>; rel="describedby"/);
    assert.match(res.headers.link!, /<\/llms\.txt>; rel="describedby"/, 'llms.txt v2: the page names the llms.txt that covers it');
    assert.match(res.headers.link!, /<\/\.well-known\/ard\.json>; rel="ard"/);
  });
});
