// The CLI names who refused each agent and what each is asked to pay (issue 36 items 4, 5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalLines } from '../../src/cli/refusals-view.ts';
import type { ScanReport } from '../../src/cli/api.ts';

type Entry = ScanReport['matrix'][number];
const entry = (ua: string, over: Partial<Entry>): Entry => ({ ua, intent: 'user-fetch', robotsSays: 'allowed', edgeDoes: { networkA: 'pass', networkB: 'pass' }, httpStatus: { networkA: 200, networkB: 200 }, verdict: 'pass', measurement: 'measured', attributedVendors: [], notes: [], ...over });

test('agents refused alike are named together, with the party, the evidence and the price', () => {
  const shopify = { party: 'platform' as const, vendor: 'shopify', evidence: 'HTTP 429 with x-shopid: 1' };
  const lines = refusalLines([
    entry('Claude-User', { edgeDoes: { networkA: 'rate-limited', networkB: 'rate-limited' }, refusedBy: { networkA: shopify, networkB: shopify } }),
    entry('GPTBot', { edgeDoes: { networkA: 'auth', networkB: 'transport-error' }, offers: { networkA: { scheme: 'pay-per-crawl', price: '0.01', currency: 'USD' } }, refusedBy: { networkA: { party: 'edge', vendor: 'cloudflare', evidence: 'HTTP 402', asksToSign: 'sig1=()' }, networkB: { party: 'network', evidence: 'error PROXY: our egress proxy refused the tunnel (HTTP 403)' } } }),
    entry('ClaudeBot', { edgeDoes: { networkA: 'origin-error', networkB: 'pass' }, refusedBy: { networkA: { party: 'origin', evidence: 'HTTP 500' } } }),
    entry('ChatGPT-User', {}),
  ]);
  assert.deepEqual(lines, [
    'Claude-User — networkA: refused by the Shopify platform\'s bot rules, not by your site (HTTP 429 with x-shopid: 1)',
    'Claude-User — networkB: refused by the Shopify platform\'s bot rules, not by your site (HTTP 429 with x-shopid: 1)',
    'GPTBot — networkA: refused by the site\'s edge (cloudflare) (HTTP 402); the edge asks agents to sign (Accept-Signature: sig1=())',
    'GPTBot — networkA: asked to pay USD 0.01 per request (pay per crawl)',
    'GPTBot — networkB: not measured: our own network failed (never counted against the site) (error PROXY: our egress proxy refused the tunnel (HTTP 403))',
  ]);
});

test('nothing refused, nothing said', () => assert.deepEqual(refusalLines([entry('GPTBot', {})]), []));
