// A body as a browser renders it (src/scanner/rendered.ts): the two views markers read, and the
// word prefilter that spares most pages a parse, which must never hide a marker that is there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FINGERPRINTS_V1_2 } from '../../src/scanner/data/fingerprints-v1.2.ts';
import { compileRendered, hidesLetters, matchRendered, pageViews, renderBody, wordIndex, type RenderedMarkers } from '../../src/scanner/rendered.ts';
import { loadSamples, variantsOf } from './edge-corpus.ts';

const table: Array<[what: string, html: string, text: string, markup: string]> = [
  ['entities decoded, case folded', '<TITLE>Access&#32;Denied</TITLE><P>Reference&#32;&#35;18&#46;2f</P>', 'access denied reference #18.2f', '<title>access denied</title><p></p>'],
  ['whitespace collapsed across line breaks, CRLF, tabs, no-break spaces and a BOM', '\ufeff<p>The requested URL\r\n\t was&nbsp;rejected.</p>', 'the requested url was rejected.', '<p></p>'],
  ['inline elements run on, block elements apart', '<h1>Sorry</h1><p>Error code <span>1020</span>: <b>blocked</b></p>', 'sorry error code 1020: blocked', '<h1></h1><p><span></span><b></b></p>'],
  ['attributes decoded and quoted alike, in their order', "<div ID=px-captcha class='a\n b'></div><a href=\"https&#58;//x.test/?a=1&amp;b=2\">x</a>", 'x', '<div id="px-captcha" class="a b"></div><a href="https://x.test/?a=1&b=2"></a>'],
  ['script and style are markup, not text; comments are neither', '<script>window._cf_chl_opt = {};</script><style>p{}</style><!-- Reference #18. --><p>hi</p>', 'hi', '<script>window._cf_chl_opt = {};</script><style>p{}</style><p></p>'],
  ['an iframe\'s fallback text is text (Incapsula puts its incident there)', '<iframe src="/x">Request unsuccessful. Incapsula incident ID: 1-2</iframe>', 'request unsuccessful. incapsula incident id: 1-2', '<iframe src="/x"></iframe>'],
  ['typographic quotes folded', '<p>You don’t have “permission”</p>', 'you don\'t have "permission"', '<p></p>'],
  ['text that quotes markup is text, never markup', '<pre>&lt;input name="jschl_answer"&gt;</pre>', '<input name="jschl_answer">', '<pre></pre>'],
  ['a plain-text body is its text', 'error code: 1020', 'error code: 1020', ''],
];

for (const [what, html, text, markup] of table) {
  test(`renderBody: ${what}`, () => {
    assert.deepEqual(renderBody(html), { text, markup });
  });
}

test('hidesLetters: a numeric reference to a letter or digit can hide a word; one to punctuation cannot', () => {
  for (const hides of ['Incap&#x73;ula', 'Incap&#115;ula', '&#X31;020', '&#49']) assert.equal(hidesLetters(hides), true, hides);
  for (const shows of ['Reference&#32;&#35;18&#46;', 'don&#x27;t', '&amp; &#; &#x;', 'no references']) assert.equal(hidesLetters(shows), false, shows);
});

// Each set with its size bound, as matchSet applies it before any marker is read.
const bounded: Array<{ m: RenderedMarkers; max: number }> = FINGERPRINTS_V1_2.flatMap((f) => [f.presence, ...(f.challenge ?? []), ...(f.deny ?? []), ...(f.rateLimit ?? [])])
  .flatMap((s) => { const m = compileRendered(s); return m ? [{ m, max: s.bodyMaxBytes ?? Infinity }] : []; });
const sets = bounded.map((b) => b.m);
const index = wordIndex(sets);

test('the word prefilter finds words inside longer words and at any position', () => {
  const found = index.find('xx incapsulaincident id ... sgcaptchasgcaptcha');
  for (const w of ['incapsula', 'incident', 'sgcaptcha']) assert.ok(found.has(w), w);
  assert.ok(!index.find('nothing here').has('incapsula'));
});

test('the word prefilter never hides a marker: every corpus page and variant matches as it does rendered unfiltered', () => {
  const pages = [...loadSamples().map((s) => s.body), ...variantsOf(loadSamples()).map((v) => v.body), 'Incap&#x73;ula incident ID: 1'];
  let matched = 0;
  for (const body of pages) {
    const views = pageViews(body, index);
    // The same page, rendered once, with a prefilter that lets it through.
    const everything = { ...views, has: () => true };
    const bytes = Buffer.byteLength(body);
    for (const { m, max } of bounded) {
      if (bytes > max) continue;
      const filtered = matchRendered(m, views);
      assert.equal(filtered, matchRendered(m, everything), body.slice(0, 80));
      if (filtered) matched++;
    }
  }
  assert.ok(matched > 1000, `${matched} matches compared`);
});
