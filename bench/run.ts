// `npm run bench`: every benchmark in one run, on one machine, each writing its own
// section of bench/results.md, then a summary against the targets of issues 7 and 14 (cold start and reads tightened by 14). Asserts
// nothing: a figure over its target is reported, never a failure.
//   read endpoints vs bare Express    bench/reads.ts
//   cold start of the service         bench/cold-start.ts
//   CLI start-up                      bench/cli-startup.ts (the CLI's own, when present)
//   scan latency vs critical path     bench/scan.ts (the engine's own, when present)
//   100 concurrent scans              bench/concurrent-scans.ts
//   scaling 1 → 300 scans at once     bench/concurrent-scans.ts (benchScaling)
//   where a scan's CPU goes           bench/cpu-profile.ts (--cpu-prof, beside the commit before)
//   batches on the job engine         bench/batches.ts (BENCH_DATABASE_URL + BENCH_REDIS_URL for two instances)
//   a claim at 20,000 queued jobs     bench/job-claims.ts (the embedded engine, beside liteque's claim)
//   listChanges and /metrics          bench/ops.ts (listChanges over 100,000 events; a scrape's CPU)
//   batch summary page, 5,000 vs 100  bench/summary-page.ts (first contentful paint in Chromium)
// BENCH_ONLY=reads,cold-start,... runs a subset.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { batchBenchOptions, benchBatches } from './batches.ts';
import { benchColdStart } from './cold-start.ts';
import { benchConcurrentScans, benchScaling } from './concurrent-scans.ts';
import { benchCpuProfile } from './cpu-profile.ts';
import { root } from './lib/child.ts';
import { describeMachine, nowIso } from './lib/machine.ts';
import { writeSection } from './lib/results.ts';
import { fmt } from './lib/stats.ts';
import { benchJobClaims } from './job-claims.ts';
import { benchReads } from './reads.ts';
import { benchOps } from './ops.ts';
import { benchSummaryPage } from './summary-page.ts';

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (name: string) => !only || only.includes(name);
const verdict = (ok: boolean) => (ok ? 'meets' : '**misses**');

interface Row { what: string; target: string; figure: string; ok: boolean | null }
const rows: Row[] = [];
const startedAt = nowIso();
const load = os.loadavg()[0]!.toFixed(2);

function runScript(file: string): boolean {
  if (!existsSync(path.join(root, file))) {
    console.log(`${file} is not there yet: skipped`);
    return false;
  }
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, [file], { cwd: root, stdio: 'inherit' });
  return r.status === 0;
}

function section(name: string): string {
  const text = existsSync(path.join(root, 'bench/results.md')) ? readFileSync(path.join(root, 'bench/results.md'), 'utf8') : '';
  const m = new RegExp(`<!-- bench:${name}:start -->([\\s\\S]*?)<!-- bench:${name}:end -->`).exec(text);
  return m?.[1] ?? '';
}

if (wanted('reads')) {
  console.log('\n=== read endpoints vs bare Express');
  const { markdown, figures, shares } = await benchReads();
  writeSection('reads', markdown);
  console.log(markdown);
  for (const f of figures) {
    const { share, sameBytesShare, cpuShare } = shares.get(f.name)!;
    rows.push({ what: `${f.name} share of bare Express`, target: '≥ 70 %', figure: `${fmt(100 * share)} %`, ok: Math.round(100 * share) >= 70 });
    rows.push({ what: `${f.name} share of bare Express sending as many bytes`, target: '(reported)', figure: `${fmt(100 * sameBytesShare)} %`, ok: null });
    rows.push({ what: `${f.name} capacity share: the hello-world's server CPU per request over this one's`, target: '(reported)', figure: `${fmt(100 * cpuShare)} %`, ok: null });
  }
}

if (wanted('cold-start')) {
  console.log('\n=== cold start');
  const { markdown, freshMedianMs, firstStartMedianMs } = await benchColdStart();
  writeSection('cold-start', markdown);
  console.log(markdown);
  rows.push({ what: 'cold start, spawn to first 200 on /health (median, fresh database, warm compile cache)', target: '≤ 1.0 s', figure: `${fmt(freshMedianMs)} ms`, ok: freshMedianMs <= 1000 });
  rows.push({ what: 'the same, an instance\'s first start (empty compile cache)', target: '(reported)', figure: `${fmt(firstStartMedianMs)} ms`, ok: null });
}

if (wanted('cli')) {
  const ran = runScript('bench/cli-startup.ts');
  const m = /\| `--version` \| (\d+) ms/.exec(section('cli'));
  rows.push({ what: 'CLI start-up, `--version` to first output (median)', target: '≤ 300 ms', figure: m ? `${m[1]} ms${ran ? '' : ' (earlier run)'}` : 'not measured', ok: m ? Number(m[1]) <= 300 : null });
}

if (wanted('scan')) {
  const ran = runScript('bench/scan.ts');
  const m = /scan time p50[^|]*\| ([\d,]+) ms \(([\d.]+) × critical path\)/.exec(section('scan'));
  rows.push({ what: 'scan median against its critical path (50 ms world)', target: '≤ 1.3 ×', figure: m ? `${m[2]} × (${m[1]} ms)${ran ? '' : ' (earlier run)'}` : 'not measured', ok: m ? Number(m[2]) <= 1.3 : null });
}

if (wanted('concurrent-scans')) {
  console.log('\n=== 100 concurrent scans');
  const { markdown, cpuPerScan: perScan, rssPerScan: rss, p95Ratio: ratio, burst, bareCpuPerScan: bare, socketsCpuPerScan: sockets, warmCpuPerScan: warm, bareWarmCpuPerScan: bareWarm } = await benchConcurrentScans();
  writeSection('concurrent-scans', markdown);
  console.log(markdown);
  rows.push({ what: '100 concurrent scans, service CPU per scan (median of the bursts)', target: '≤ 40 ms', figure: `${fmt(perScan, 1)} ms`, ok: perScan <= 40 });
  rows.push({ what: 'the same requests by bare undici, no scanner, 100 sites at once (this machine\'s reference)', target: '(reported)', figure: `${fmt(bare, 1)} ms per scan; the service ${fmt(perScan / bare, 2)} × that`, ok: null });
  rows.push({ what: 'the same requests over Node\'s own TLS sockets, no HTTP library, 100 sites at once (near the floor of Node itself)', target: '(reported)', figure: `${fmt(sockets, 1)} ms per scan; the service ${fmt(perScan / sockets, 2)} × that`, ok: null });
  rows.push({ what: 'the same, service and bare undici each after a first burst of 100 other sites (a process that has run a while)', target: '(reported)', figure: `${fmt(warm, 1)} ms per scan, against ${fmt(bareWarm, 1)} ms for bare undici (${fmt(warm / bareWarm, 2)} ×)`, ok: null });
  rows.push({ what: '100 concurrent scans, peak RSS per scan in flight above the idle service (median of the bursts)', target: '≤ 1 MiB', figure: `${fmt(rss, 2)} MiB`, ok: rss <= 1 });
  rows.push({ what: '100 concurrent scans, p95 against the CPU floor of the same burst (median)', target: '≤ 1.3 ×', figure: `${fmt(ratio, 2)} × (e.g. ${fmt(burst.p95)} ms against ${fmt(burst.floorMs)} ms)`, ok: ratio <= 1.3 });
}

if (wanted('cpu-profile')) {
  console.log('\n=== where a scan\'s CPU goes (profiled)');
  const { markdown } = await benchCpuProfile();
  writeSection('cpu-profile', markdown);
  console.log(markdown);
}

if (wanted('scaling')) {
  console.log('\n=== scaling 1 → 300 concurrent scans');
  const { markdown } = await benchScaling();
  writeSection('scaling', markdown);
  console.log(markdown);
}

if (wanted('batches')) {
  console.log('\n=== batches on the job engine');
  const b = await benchBatches(batchBenchOptions([], process.env));
  writeSection('batches', b.markdown);
  console.log(b.markdown);
  rows.push({ what: 'batch: scans per second per core, batch against the 100-at-once burst', target: '(reported)', figure: `${fmt(b.batchScansPerCoreSecond, 1)} against ${fmt(b.burstScansPerCoreSecond, 1)}`, ok: null });
  rows.push({ what: 'batch: the job engine\'s own CPU per item (embedded) against a scan\'s', target: '≤ 5 %', figure: `${fmt(100 * b.engineShareOfScan, 2)} %`, ok: b.engineShareOfScan <= 0.05 });
  rows.push({ what: 'batch: resident size, last 1,000 of 5,000 items over the first 1,000', target: '≤ 1.10', figure: fmt(b.rssRatio, 3), ok: b.rssRatio <= 1.1 });
  rows.push({ what: 'batch: p95 of a person\'s POST /scan during a batch over idle', target: '≤ 2 ×', figure: `${fmt(b.p95Ratio, 2)} ×`, ok: b.p95Ratio <= 2 });
  rows.push({ what: 'batch: two instances on PostgreSQL and Redis over one', target: '(reported)', figure: b.twoVsOne === null ? 'not measured' : `${fmt(b.twoVsOne, 2)} ×`, ok: null });
}

if (wanted('job-claims')) {
  console.log('\n=== a claim of the embedded job engine at 20,000 queued jobs');
  const c = await benchJobClaims();
  writeSection('job-claims', c.markdown);
  console.log(c.markdown);
  rows.push({ what: 'embedded job engine: one claim at 20,000 queued jobs (mean)', target: '< 1 ms', figure: `${fmt(c.ours.meanMs, 3)} ms (liteque's claim beside it: ${fmt(c.liteque.meanMs, 1)} ms)`, ok: c.ours.meanMs < 1 });
}

if (wanted('ops')) {
  console.log('\n=== listChanges over 100,000 events; a /metrics scrape');
  const o = await benchOps();
  writeSection('ops', o.markdown);
  console.log(o.markdown);
  for (const [db, ms] of Object.entries(o.pageMedianMs)) {
    rows.push({ what: `listChanges over 100,000 stored events, a key's page of 100 over HTTP, slowest median of its pages (${db})`, target: '< 50 ms', figure: `${fmt(ms, 2)} ms`, ok: ms < 50 });
  }
  rows.push({ what: 'a /metrics scrape, CPU per scrape (20,000 jobs queued)', target: '< 5 ms', figure: `${fmt(o.scrapeCpuMs, 3)} ms`, ok: o.scrapeCpuMs < 5 });
}

if (wanted('summary-page')) {
  console.log('\n=== batch summary page: 5,000 sites against 100');
  const p = await benchSummaryPage();
  writeSection('summary-page', p.markdown);
  console.log(p.markdown);
  rows.push({ what: 'batch summary page, first contentful paint of a 5,000-site batch over a 100-site one (Chromium, medians)', target: '≤ 1.5 ×', figure: `${fmt(p.ratio, 2)} × (${fmt(p.large)} ms against ${fmt(p.small)} ms; first view ${fmt(p.firstRatio, 2)} ×)`, ok: p.ratio <= 1.5 });
}

const summary = [
  '## Summary against the targets (`npm run bench`)',
  '',
  `Run started ${startedAt} on ${describeMachine()}; load average ${load} at the start. The machine is shared with other work, so single figures move by ±30 %; every comparison below is measured side by side in this one run.`,
  '',
  '| figure | target | measured | |',
  '|---|---|---|---|',
  ...rows.map((r) => `| ${r.what} | ${r.target} | ${r.figure} | ${r.ok === null ? (r.figure === 'not measured' ? 'not measured' : 'reported') : verdict(r.ok)} |`),
].join('\n');
writeSection('summary', summary);
console.log(`\n${summary}`);
