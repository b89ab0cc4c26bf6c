import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { html } from '../../src/report/html.ts';
import { renderReportPage, renderNotFoundPage } from '../../src/report/page.ts';
import { badgeFor, notScannedBadge } from '../../src/report/badge.ts';
import { PAGE_CSP, STYLE, STYLE_HASH, STYLESHEET_NAME, STYLESHEET_PATH } from '../../src/report/styles.ts';
import { createHash } from 'node:crypto';
import type { ScanReportBody } from '../../src/scans/types.ts';
import { cannedReport, evidenceFor } from './fixtures.ts';

function body(over: Partial<ScanReportBody> = {}): ScanReportBody {
  return { ...cannedReport('escape-site.com'), scanId: '11111111-2222-4333-8444-555555555555', outreachEligible: false, ...over };
}

describe('report HTML', () => {
  test('html tag escapes every interpolated string, whatever it holds', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      const out = html`<p title="${s}">${s}</p>${[s, s]}`.value;
      assert.equal((out.match(/</g) ?? []).length, 2, 'only the template tags remain as markup');
      assert.equal((out.match(/>/g) ?? []).length, 2);
      assert.equal((out.match(/"/g) ?? []).length, 2, 'no attribute can be closed from inside');
    }), { seed: 42, numRuns: 300 });
  });

  test('no site-derived value becomes markup anywhere on the page', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const payload = `<x-evil a="${s}">${s}</x-evil>'"`;
      const page = renderReportPage({
        report: body({
          domain: 'escape-site.com', reasons: [payload], confidenceNote: payload,
          checks: [{ id: payload, category: payload, weight: 1, status: 'fail', detail: payload }],
          matrix: [{ ua: payload, intent: 'training', robotsSays: 'allowed', edgeDoes: null, httpStatus: null, verdict: 'not-probeable', measurement: 'inferred', attributedVendors: [payload], notes: [payload] }],
          score: { value: null, display: '—', decidedCount: 0, minDecided: 5, categories: { [payload]: null }, rubricVersion: payload },
          probeMethod: payload, evidenceRefs: ['ev-1'],
        }),
        evidence: evidenceFor('escape-site.com').map((e) => ({ ...e, title: payload, finalUrl: payload, markers: [payload], vendors: [payload] })),
        cliVantage: { selfReported: true, observedAt: payload, observations: [{ key: `grid:${payload}`, status: 0, bodyBytes: 0, timingMs: 0, error: payload }] },
        catalog: () => ({ name: payload, why: payload, fix: payload }),
      });
      assert.ok(!page.includes('<x-evil'), 'payload tag rendered as markup');
      assert.ok(!/<script/i.test(page));
    }), { seed: 7, numRuns: 60 });
  });

  test('the CSP allows stylesheets of this origin only, no inline style and no script; the page links the stylesheet by its content', () => {
    assert.equal(STYLE_HASH, `sha256-${createHash('sha256').update(STYLE).digest('base64')}`);
    assert.match(PAGE_CSP, /(^|; )style-src 'self';/);
    assert.ok(!/script-src|unsafe|sha256/.test(PAGE_CSP));
    assert.equal(STYLESHEET_NAME, `report.${createHash('sha256').update(STYLE).digest('hex').slice(0, 16)}`);
    assert.equal(STYLESHEET_PATH, `/assets/${STYLESHEET_NAME}.css`);
    for (const page of [renderReportPage({ report: body(), evidence: [], cliVantage: null, catalog: () => undefined }), renderNotFoundPage('x')]) {
      assert.ok(page.includes(`<link rel="stylesheet" href="${STYLESHEET_PATH}" integrity="${STYLE_HASH}">`));
      assert.ok(!page.includes('<style'), 'no inline stylesheet');
    }
  });

  test('a null score shows "not enough signal" and the page never mentions a token', () => {
    const page = renderReportPage({ report: body({ score: { value: null, display: '—', decidedCount: 2, minDecided: 5, categories: {}, rubricVersion: 'rubric-v1.1' } }), evidence: [], cliVantage: null, catalog: () => undefined });
    assert.match(page, /not enough signal/);
    assert.doesNotMatch(page, /uploadToken|cliUploadToken/);
  });

  test('the 404 page escapes the requested id', () => {
    assert.ok(renderNotFoundPage('<b>x</b>').includes('&lt;b&gt;x&lt;/b&gt;'));
  });

  test('badges are grey for unknown or a null score and coloured otherwise', () => {
    const grey = /fill="#939393"/;
    assert.match(badgeFor('unknown', 55, 'rubric-v1.2'), grey);
    assert.match(badgeFor('open', null, 'rubric-v1.2'), grey);
    assert.doesNotMatch(badgeFor('open', 91, 'rubric-v1.2'), grey);
    assert.match(badgeFor('open', 91, 'rubric-v1.2'), /91 · open/);
    assert.match(notScannedBadge(), /not scanned/);
  });

  test('a badge names the rubric that scored its report, so the same number under two rubrics never looks alike', () => {
    const [v11, v12] = [badgeFor('open', 91, 'rubric-v1.1'), badgeFor('open', 91, 'rubric-v1.2')];
    assert.match(v11, /<title>agent-ready rubric-v1\.1: 91 · open<\/title>/);
    assert.match(v12, /<title>agent-ready rubric-v1\.2: 91 · open<\/title>/);
    assert.notEqual(v11, v12);
  });
});
