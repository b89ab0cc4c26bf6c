// The batch summary says who is charged, how much, and who is served free (issue 36 item 5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { factsOf, SummaryBuilder } from '../../src/batches/summary.ts';
import { summaryPage } from '../../src/batches/page.ts';
import type { ScanReportBody } from '../../src/scans/types.ts';

type Entry = ScanReportBody['matrix'][number];
const row = (ua: string, over: Partial<Entry> = {}): Entry => ({ ua, intent: 'training', robotsSays: 'allowed', edgeDoes: { networkA: 'pass', networkB: 'pass' }, httpStatus: { networkA: 200, networkB: 200 }, verdict: 'pass', measurement: 'measured', attributedVendors: [], notes: [], ...over });
const paid = (ua: string, offer: NonNullable<Entry['offers']>['networkA']): Entry => row(ua, { edgeDoes: { networkA: 'auth', networkB: 'auth' }, httpStatus: { networkA: 402, networkB: 402 }, verdict: 'denied', offers: { networkA: offer, networkB: offer } });
const PPC = { scheme: 'pay-per-crawl' as const, price: '0.01', currency: 'USD' };

test('facts carry the charged agents and those served free, only where some agent is charged', () => {
  assert.equal(factsOf({ matrix: [row('GPTBot'), row('ClaudeBot')] }).c, undefined);
  assert.deepEqual(factsOf({ matrix: [paid('GPTBot', PPC), row('ClaudeBot'), row('CCBot', { verdict: 'denied' })] }).c, { charged: { GPTBot: 'USD 0.01 per request' }, free: ['ClaudeBot'] });
});

test('the summary counts charging sites, prices per agent, and agents served free', () => {
  const b = new SummaryBuilder();
  const add = (matrix: Entry[]) => b.add({ headline: 'partially-blocked', score: 50, facts: factsOf({ matrix }) });
  add([paid('GPTBot', PPC), row('ClaudeBot'), row('CCBot')]);
  add([paid('GPTBot', PPC), paid('CCBot', { scheme: 'x402-v2', price: '0.005', currency: 'USDC' }), row('ClaudeBot')]);
  add([paid('GPTBot', { scheme: 'x402-v2', price: '0.02', currency: 'USDC' }), paid('ClaudeBot', PPC), paid('CCBot', PPC)]);
  add([row('GPTBot'), row('ClaudeBot')]);
  const p = b.build().prices!;
  assert.equal(p.sites, 3);
  assert.equal(p.chargeSomeServeOthersFree, 2);
  assert.deepEqual(p.agents.find((a) => a.ua === 'GPTBot'), { ua: 'GPTBot', charged: 3, servedFreeByChargingSites: 0, prices: [{ price: 'USD 0.01 per request', sites: 2 }, { price: '0.02 USDC', sites: 1 }] });
  assert.deepEqual(p.agents.find((a) => a.ua === 'ClaudeBot'), { ua: 'ClaudeBot', charged: 1, servedFreeByChargingSites: 2, prices: [{ price: 'USD 0.01 per request', sites: 1 }] });
  assert.equal(p.sentence, '3 sites charge some agents, 2 of them serving others free. Charged: GPTBot on 3 sites (USD 0.01 per request on 2); CCBot on 2 sites (0.005 USDC on 1); ClaudeBot on 1 site (USD 0.01 per request).');
});

test('no site charges: no prices, and the page has no section for them', () => {
  const b = new SummaryBuilder();
  b.add({ headline: 'open', score: 90, facts: factsOf({ matrix: [row('GPTBot')] }) });
  const s = b.build();
  assert.equal(s.prices, undefined);
  assert.doesNotMatch(summaryPage({ batchId: '1', status: 'done', total: 1, ...s }, null), /id="prices"/);
});

test('the page shows the prices, escaped', () => {
  const b = new SummaryBuilder();
  b.add({ headline: 'partially-blocked', score: 50, facts: factsOf({ matrix: [paid('<b>x</b>', { scheme: 'mpp', price: '1', currency: '<i>EUR</i>' }), row('ClaudeBot')] }) });
  const page = summaryPage({ batchId: '1', status: 'done', total: 1, ...b.build() }, null);
  assert.match(page, /id="prices"/);
  assert.ok(!page.includes('<b>x</b>') && !page.includes('<i>EUR</i>'));
  assert.match(page, /Served free wherever asked: ClaudeBot\./);
});
