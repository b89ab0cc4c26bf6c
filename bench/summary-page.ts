// First contentful paint of a batch's summary page (issue 38 item 3: the portfolio grid stays
// usable at 5,000 sites): a 5,000-site batch against a 100-site one, side by side in one run,
// in Debian's Chromium. Both batches are stored as finished items whose facts come from the
// full-size report of the whole roster (test/report/fixtures.ts, each site denying 0 to 9
// agents), written through the same query a finishing item uses; the page is served by the
// real app (SQLite) over loopback with the key as the bearer. Runs alternate between the two
// batches, each in a fresh browser context (nothing cached). Asserts nothing; `npm run bench`
// reports the ratio against ≤ 1.5 ×.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { factsOf, deniedOf } from '../src/batches/summary.ts';
import { finishItemDone, insertBatch } from '../src/storage/queries/batches.ts';
import { launchHeadless } from '../test/helpers/chromium.ts';
import { testApp } from '../test/helpers/app.ts';
import { fullReport } from '../test/report/fixtures.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt, median } from './lib/stats.ts';

export interface SummaryPageBench { markdown: string; small: number; large: number; ratio: number; firstRatio: number }

const RUNS = 15;

export async function benchSummaryPage(): Promise<SummaryPageBench> {
  const t = await testApp({ LOG_LEVEL: 'silent' }, {}, { batches: false, watches: false, webhooks: false, mailer: false });
  const { key, keyId } = await t.services.keys.create('Bench Partner', 10_000);
  const { report } = fullReport('bench.example');
  async function batchOf(n: number): Promise<string> {
    const id = randomUUID();
    const at = new Date().toISOString();
    await insertBatch(t.ctx.db, { id, key_id: keyId, label: `${n} sites`, profile: null, status: 'done', total: n, rejected: '[]', charged_day: at.slice(0, 10), created_at: at, started_at: at, finished_at: at },
      Array.from({ length: n }, (_, i) => `s${i}.bench-portfolio.com`));
    for (let i = 0; i < n; i++) {
      let left = i % 10;
      const matrix = report.matrix.map((m) => (m.edgeDoes !== null && left-- > 0 ? { ...m, verdict: 'denied' as const, edgeDoes: { networkA: 'block' as const, networkB: 'block' as const } } : m));
      const facts = factsOf({ matrix });
      await finishItemDone(t.ctx.db, id, i, { scanId: randomUUID(), archived: true, headline: 'partially-blocked', score: 40 + (i % 50), confidence: 'high', facts: JSON.stringify(facts), denied: deniedOf(facts) }, at);
    }
    return id;
  }
  const warm = await batchOf(10);
  const small = await batchOf(100);
  const large = await batchOf(5000);
  const server = http.createServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchHeadless();
  const fcp: Record<string, number[]> = { small: [], large: [] };
  const ttfb: Record<string, number[]> = { small: [], large: [] };
  const bytes: Record<string, number> = {};
  const firstView: Record<string, { fcp: number; ttfb: number }> = {};
  try {
    // Warm the browser and the server's code paths on a third batch, so the first views compare batches, not a cold start.
    for (let i = 0; i < 3; i++) {
      const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${key}` } });
      await (await context.newPage()).goto(`${base}/batches/${warm}/summary`, { waitUntil: 'load' });
      await context.close();
    }
    for (let run = 0; run < RUNS + 1; run++) {
      for (const [name, id] of run % 2 ? [['large', large], ['small', small]] : [['small', small], ['large', large]]) {
        const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${key}` } });
        const page = await context.newPage();
        const res = await page.goto(`${base}/batches/${id}/summary`, { waitUntil: 'load' });
        bytes[name!] = (await res!.body()).length;
        // The paint entry may land after 'load': wait for it (buffered, so one already there counts).
        const [paint, nav] = (await page.evaluate(`new Promise((resolve) => new PerformanceObserver((list, obs) => {
          const e = list.getEntriesByName('first-contentful-paint')[0];
          if (e) { obs.disconnect(); resolve([e.startTime, performance.getEntriesByType('navigation')[0].responseStart]); }
        }).observe({ type: 'paint', buffered: true }))`)) as [number, number];
        // The first round is each batch's first view (its summary folded from every item; a done
        // batch's is kept after it, src/batches/summary-cache.ts), reported apart, not in the medians.
        if (run > 0) { fcp[name!]!.push(paint); ttfb[name!]!.push(nav); } else firstView[name!] = { fcp: paint, ttfb: nav };
        await context.close();
      }
    }
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await t.close();
  }
  const s = median(fcp.small!);
  const l = median(fcp.large!);
  const ratio = l / s;
  const markdown = [
    '## Batch summary page: first contentful paint, 5,000 sites against 100 (`bench/summary-page.ts`)',
    '',
    `Run ${nowIso()} on ${describeMachine()}. Chromium ${RUNS} runs each, alternating, fresh context each; medians.`,
    '',
    '| batch | FCP (median) | time to first byte (median) | first view: FCP, time to first byte | HTML bytes |',
    '|---|---|---|---|---|',
    `| 100 sites | ${fmt(s, 1)} ms | ${fmt(median(ttfb.small!), 1)} ms | ${fmt(firstView.small!.fcp, 1)} ms, ${fmt(firstView.small!.ttfb, 1)} ms | ${bytes.small} |`,
    `| 5,000 sites | ${fmt(l, 1)} ms | ${fmt(median(ttfb.large!), 1)} ms | ${fmt(firstView.large!.fcp, 1)} ms, ${fmt(firstView.large!.ttfb, 1)} ms | ${bytes.large} |`,
    '',
    `5,000 over 100: **${fmt(ratio, 2)} ×** (target ≤ 1.5 ×); at the first view ${fmt(firstView.large!.fcp / firstView.small!.fcp, 2)} ×. Both pages hold one page of the portfolio grid (100 rows). A done batch's summary is folded from every item's facts at its first view and kept by the instance after it, so later views (and grid pages) cost one page of rows.`,
  ].join('\n');
  return { markdown, small: s, large: l, ratio, firstRatio: firstView.large!.fcp / firstView.small!.fcp };
}

if (import.meta.main) {
  const r = await benchSummaryPage();
  writeSection('summary-page', r.markdown);
  console.log(r.markdown);
}
