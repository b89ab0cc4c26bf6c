// Soft blocks and the page each agent gets (issue 36 items 2, 3), table-driven over probe views
// made exactly as a scan makes them (toView), so the digests are the ones the engine reads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fetched } from './fixtures.ts';
import { applySoftBlocks } from '../../src/scanner/soft-block.ts';
import { compareCell } from '../../src/scanner/content.ts';
import { hasPasswordField, sketchOf, similarity } from '../../src/scanner/page-digest.ts';
import { htmlPage, LOREM } from '../world/site.ts';
import type { FetchedView, NetworkName } from '../../src/scanner/types.ts';

const URL_ = 'https://shop.world-fixtures.com/';
const REAL = htmlPage().replaceAll('{domain}', 'shop.world-fixtures.com');
const view = (body: string, o: { status?: number; headers?: Record<string, string> } = {}) =>
  fetched('grid:GPTBot', URL_, { body, status: o.status ?? 200, ...(o.headers ? { headers: o.headers } : {}) }, { isHome: true });
const tiny = (title: string, body: string, lang = 'en') => `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body>${body}</body></html>`;

/** One network's control and one agent's cell through applySoftBlocks: the agent's outcome after it. */
function judge(control: string, agent: string, agentHeaders?: Record<string, string>): { outcome: string; markers: string[] } {
  const controls = { networkA: view(control), networkB: view(control) } as Record<NetworkName, FetchedView>;
  const cell = view(agent, agentHeaders ? { headers: agentHeaders } : {});
  const cells = { GPTBot: { networkA: cell, networkB: view(control) } };
  applySoftBlocks(controls, cells);
  return { outcome: cell.outcome, markers: cell.record.markers };
}

const LONG_WITH_WORDS = htmlPage({ text: `${LOREM} Our support guide explains what "access denied" means when a payment card is refused, and how to sign in to continue an order. ${LOREM}` });

const CASES: Array<[name: string, control: string, agent: string, want: 'pass' | 'block', marker?: RegExp]> = [
  ['a short English refusal instead of the real page', REAL, tiny('Access denied', '<h1>Access denied</h1><p>Automated access is not permitted.</p>'), 'block', /a refusal \(refusal "access denied" \(en\); no main content\)/],
  ['a licensing gate without denial wording but no main content', REAL, tiny('Protected content', '<p>This content is available to AI systems under a commercial license only.</p>'), 'block', /a licensing gate/],
  ['a sign-in form and nothing else', REAL, tiny('Welcome', '<form><input name="u"><input type="password" name="p"><button>Go</button></form>'), 'block', /a sign-in gate \(login: a password field; no main content\)/],
  ['a "verify you are human" page', REAL, tiny('One moment', '<p>Please verify you are human to continue.</p>'), 'block', /"verify you are human" page/],
  ['a French refusal', REAL, tiny('Accès refusé', '<h1>Accès refusé</h1>', 'fr'), 'block', /refusal "accès refusé" \(fr\)/],
  ['an Indonesian refusal (as BSSN words it)', REAL, tiny('Permintaan Ditolak', '<h1>Alamat URL Ditolak!</h1>', 'id'), 'block', /\(id\)/],
  ['the same short page for the browser and the agent', tiny('Access denied', '<h1>Access denied</h1>'), tiny('Access denied', '<h1>Access denied</h1>'), 'pass'],
  ['a short real page for everyone and a refusal for the agent: the control has no main content', tiny('Home', '<p>Coming soon.</p>'), tiny('Access denied', '<h1>Access denied</h1>'), 'pass'],
  ['a short teaser without gate wording stays a pass (reduced content is not a denial)', REAL, tiny('Example Shop', '<p>Subscribe.</p>'), 'pass'],
  ['a long page that mentions gate words is a real page', REAL, LONG_WITH_WORDS, 'pass'],
  ['a sign-in prompt with main content and no denial wording stays a pass', htmlPage({ text: `${LOREM} ${LOREM} ${LOREM}` }), htmlPage({ text: `Please sign in to continue to your orders. ${'Our catalogue lists every product with its price, delivery time and stock level. '.repeat(7)}` }), 'pass'],
  ['the same page with another date line is the same page', REAL, REAL.replace('</main>', '<p>Updated 2026-11-29 01:02</p></main>'), 'pass'],
];

describe('soft blocks: a 200 page that refuses an agent while the browser got the real page is a block', () => {
  for (const [name, control, agent, want, marker] of CASES) {
    test(`${name} -> ${want}`, () => {
      const got = judge(control, agent);
      assert.equal(got.outcome, want, got.markers.join(' | '));
      if (marker) assert.ok(got.markers.some((m) => marker.test(m)), `${got.markers.join(' | ')} matches ${marker}`);
      if (want === 'pass') assert.ok(!got.markers.some((m) => m.startsWith('soft block')));
    });
  }
  test('a denial the classifier already named is left as it is; a failed control turns nothing into a block', () => {
    const controls = { networkA: view('down', { status: 503 }), networkB: view(REAL) } as Record<NetworkName, FetchedView>;
    const refusal = tiny('Access denied', '<h1>Access denied</h1>');
    const cells = { GPTBot: { networkA: view(refusal), networkB: view('Forbidden', { status: 403 }) } };
    assert.deepEqual(applySoftBlocks(controls, cells), []);
    assert.equal(cells.GPTBot.networkA.outcome, 'pass');
    assert.equal(cells.GPTBot.networkB.outcome, 'block');
  });
});

const CONTENT: Array<[name: string, control: string, agent: string, want: string, differs: string[], headers?: Record<string, string>]> = [
  ['the same page', REAL, REAL, 'same', []],
  ['another title', REAL, REAL.replace('<title>Example Shop: products and support</title>', '<title>Example Shop for assistants</title>'), 'different', ['title']],
  ['another canonical URL', REAL, REAL.replace('href="https://shop.world-fixtures.com/"', 'href="https://shop.world-fixtures.com/ai/"'), 'different', ['canonical']],
  ['another text of the same length', REAL, htmlPage({ text: 'An entirely different text written for assistants. '.repeat(14) }).replaceAll('{domain}', 'shop.world-fixtures.com'), 'different', ['text']],
  ['under half the text (control at least 500 characters)', REAL, htmlPage({ text: LOREM.slice(0, 120) }).replaceAll('{domain}', 'shop.world-fixtures.com'), 'reduced', ['text']],
  ['Adobe\'s header on the same page is named, the page still the same', REAL, REAL, 'same', [], { 'x-edgeoptimize-request-id': 'abc' }],
  ['a denied agent is not compared', REAL, 'Forbidden', 'not-compared', []],
];

describe('content: each agent\'s page against the browser\'s, by title, visible text and canonical URL', () => {
  for (const [name, control, agent, want, differs, headers] of CONTENT) {
    test(`${name} -> ${want}`, () => {
      const cell = agent === 'Forbidden' ? view('Forbidden', { status: 403 }) : view(agent, headers ? { headers } : {});
      const got = compareCell(view(control), cell);
      assert.equal(got.result, want);
      assert.deepEqual(got.differs, differs);
      assert.deepEqual(got.agentServing, headers ? Object.keys(headers) : []);
    });
  }
  test('text similarity: a sketch estimates Jaccard of word shingles (same text 1, unrelated text near 0)', () => {
    const a = sketchOf(LOREM.toLowerCase());
    assert.equal(similarity(a, a), 1);
    assert.ok(similarity(a, sketchOf('completely unrelated words about gardening tools and seasonal planting advice for small plots')) < 0.05);
    assert.equal(similarity([], []), 1);
  });
});

test('a password field is found tag by tag: a hostile page of unclosed <input tags is read in bounded steps', () => {
  assert.equal(hasPasswordField('<form><input name="u"><INPUT TYPE=PASSWORD name="p"></form>'), true);
  assert.equal(hasPasswordField('<input type="text"><p>type=password is a phrase here</p>'), false);
  // 256 KiB of "<input " with no ">": one pattern over the body backtracked quadratically on this.
  assert.equal(hasPasswordField('<input '.repeat(37_450)), false);
  assert.equal(hasPasswordField(`${'<input type=text>'.repeat(250)}<input type=password>`), false, 'past the first 200 inputs nothing is read');
});
