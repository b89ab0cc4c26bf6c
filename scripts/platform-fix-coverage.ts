// How many of the checks that cost points on the world's platform-attributed scenarios get a
// platform fix from the table (src/scanner/data/platforms/), per platform and overall. A figure
// to report (issue 32 item 5), not a test: `node scripts/platform-fix-coverage.ts`.
import { startWorld } from '../test/world/index.ts';
import { SCENARIOS } from '../test/world/scenarios/index.ts';
import { createScanner } from '../src/scanner/engine.ts';

const world = await startWorld();
let losing = 0, covered = 0;
const perPlatform = new Map<string, { losing: number; covered: number }>();
const uncovered = new Map<string, number>();
try {
  for (const s of SCENARIOS) {
    let report;
    try { report = (await createScanner({ networks: world.egress({}), deadlineMs: 15_000, probeTimeoutMs: 5_000 }).scan(world.domain(s.name))).report; } catch { continue; }
    const platforms = report.platforms ?? [];
    if (platforms.length === 0) continue;
    const costly = report.checks.filter((c) => c.weight > 0 && (c.status === 'fail' || (c.status === 'pass' && c.credit !== undefined && c.credit < 1)));
    for (const c of costly) {
      const fixed = (report.platformFixes ?? []).some((f) => f.checkId === c.id);
      losing++; if (fixed) covered++; else uncovered.set(c.id, (uncovered.get(c.id) ?? 0) + 1);
      for (const p of platforms) {
        const row = perPlatform.get(p.id) ?? { losing: 0, covered: 0 };
        row.losing++; if ((report.platformFixes ?? []).some((f) => f.checkId === c.id && f.platform === p.id)) row.covered++;
        perPlatform.set(p.id, row);
      }
    }
  }
} finally { await world.stop(); }
console.log(`${covered} of ${losing} point-losing checks on platform-attributed world scenarios get a platform fix`);
for (const [id, r] of perPlatform) console.log(`  ${id}: ${r.covered} of ${r.losing}`);
console.log('without one:', [...uncovered].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', '));
