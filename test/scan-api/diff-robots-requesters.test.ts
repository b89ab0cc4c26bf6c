// Comparing two archived reports when a site serves one agent a robots.txt of its own: three real
// scans of a world site (everyone gets the same file; then GPTBot gets its own; then GPTBot's own
// copy changes), compared as JSON and as a page, and a report archived before robots.txt was read
// per requester (no `robotsTxt`) compared with a newer one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import type { TestApp } from '../helpers/app.ts';
import { resolveHost } from '../../src/net/resolve.ts';
import type { SiteScanner } from '../../src/scans/types.ts';
import { catalogLookup } from '../../src/scans/adapters.ts';
import { createScanner } from '../../src/scanner/engine.ts';
import { buildCatalog } from '../../src/scanner/catalog.ts';
import { startWorld, type World } from '../world/index.ts';
import { scanApiApp } from './api-app.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@world-fixtures.com' };
const gptbotGets = (body: string) => [{ who: ['GPTBot'], paths: ['/robots.txt'], respond: { status: 200, headers: { 'content-type': 'text/plain' }, body } }];

describe('comparing reports with robots.txt per requester', () => {
  let world: World;
  let t: TestApp;
  const ids: string[] = [];
  before(async () => {
    world = await startWorld();
    const { networkA, networkB } = world.egress();
    const scanner: SiteScanner = createScanner({ networks: { networkA, networkB }, deadlineMs: 20_000, probeTimeoutMs: 5000 });
    t = await scanApiApp({ RATE_LIMIT_PER_IP: '100/60', RATE_LIMIT_PER_DOMAIN: '10/60' }, {
      scanner, catalog: catalogLookup(buildCatalog()), resolve: (host) => resolveHost(host, world.resolveOverrides, 2000),
    });
    const scan = async () => ids.push((await request(t.app).post('/scan').send({ domain: world.domain('watched-shop'), lead, fresh: true }).expect(200)).body.scanId as string);
    await scan();
    world.update('watched-shop', { edge: gptbotGets('User-agent: *\nDisallow: /\n') });
    await scan();
    world.update('watched-shop', { edge: gptbotGets('User-agent: *\nDisallow: /private/\n') });
    await scan();
    world.reset('watched-shop');
  });
  after(async () => {
    await t?.close();
    await world?.stop();
  });

  test('GPTBot was served a copy of its own: the browser\'s copy is unchanged, GPTBot\'s is compared with what it got before', async () => {
    const d = (await request(t.app).get(`/r/${ids[0]}/diff/${ids[1]}`).set('Accept', 'application/json').expect(200).expect(conforms)).body;
    assert.equal(d.robotsTxt.changed, false, 'the browser\'s copy is the same');
    assert.equal(d.robotsTxt.requesters.length, 1);
    const [g] = d.robotsTxt.requesters;
    assert.deepEqual([g.agents, g.changed, g.added, g.removed], [['GPTBot'], true, 1, 3]);
    assert.equal(g.note, 'robots.txt as GPTBot gets it (a copy of its own now; the browser\'s copy before) changed.');
    assert.match(g.unifiedDiff, /\n User-agent: \*\n-Allow: \/\n-\n-Sitemap: [^\n]+\n\+Disallow: \/\n/);
    assert.ok(d.summary.includes('robots.txt as GPTBot gets it (a copy of its own now; the browser\'s copy before) changed: 1 line added, 3 removed.'), d.summary.join('\n'));
    assert.deepEqual(d.cells.filter((c: { agent: string }) => c.agent === 'GPTBot').map((c: { robotsSays: unknown }) => c.robotsSays)[0], { before: 'allowed', after: 'blocked' });
  });

  test('GPTBot\'s own copy changed between two scans that both served it one', async () => {
    const d = (await request(t.app).get(`/r/${ids[1]}/diff/${ids[2]}?format=json`).expect(200).expect(conforms)).body;
    const [g] = d.robotsTxt.requesters;
    assert.deepEqual([g.agents, g.changed, g.note], [['GPTBot'], true, 'robots.txt as GPTBot gets it (a copy of its own in both scans) changed.']);
    assert.match(g.unifiedDiff, /\n-Disallow: \/\n\+Disallow: \/private\/\n/);
  });

  test('the same report twice: GPTBot\'s copy is the same in both, and nothing is summarised', async () => {
    const same = (await request(t.app).get(`/r/${ids[1]}/diff/${ids[1]}?format=json`).expect(200).expect(conforms)).body;
    assert.equal(same.robotsTxt.requesters[0].changed, false);
    assert.match(same.robotsTxt.requesters[0].note, /is the same in both scans\.$/);
    assert.equal(same.summary.length, 0);
  });

  test('a report archived before robots.txt was read per requester compares as if every agent got the browser\'s copy', async () => {
    const row = await t.ctx.db('scans').where({ id: ids[0] }).first();
    const old = JSON.parse(row.report as string);
    delete old.robotsTxt;
    await t.ctx.db('scans').where({ id: ids[0] }).update({ report: JSON.stringify(old) });
    const d = (await request(t.app).get(`/r/${ids[0]}/diff/${ids[1]}?format=json`).expect(200).expect(conforms)).body;
    assert.deepEqual(d.robotsTxt.requesters.map((g: { agents: string[]; changed: boolean }) => [g.agents, g.changed]), [[['GPTBot'], true]]);
    const page = await request(t.app).get(`/r/${ids[0]}`).set('Accept', 'text/html').expect(200);
    assert.doesNotMatch(page.text, /id="robots-copies"/, 'an old report shows no per-requester section');
  });

  test('the page shows GPTBot\'s own copy and its marked diff lines; the newer report shows who got which copy', async () => {
    const page = await request(t.app).get(`/r/${ids[1]}/diff/${ids[2]}`).set('Accept', 'text/html').expect(200).expect(conforms);
    assert.match(page.text, /<h3>As GPTBot gets it<\/h3>/);
    assert.match(page.text, /<span class="da">\+Disallow: \/private\/<\/span>/);
    const report = await request(t.app).get(`/r/${ids[2]}`).set('Accept', 'text/html').expect(200);
    assert.match(report.text, /<h2 id="robots-copies">robots\.txt as each agent gets it<\/h2>/);
    assert.match(report.text, /networkA: GPTBot<br>networkB: GPTBot/);
  });
});
