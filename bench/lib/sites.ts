// The benchmark site's copies in the test world, for every benchmark that scans many sites.
/**
 * The n-th copy of the benchmark site. The world serves `<scenario>--<digits>` as a copy of the
 * scenario and answers any other name 404 (test/world/index.ts), so a name like
 * `open-basic--warmup` would be scanned as a site with no pages at all.
 */
export const benchSite = (n: number): string => `open-basic--${n}.world-fixtures.com`;
/** The headline of every copy of `open-basic`: a warm-up that gives another scanned something else. */
export const BENCH_HEADLINE = 'open';

/**
 * Where each set of copies starts, per benchmark process, so no two sets one process scans
 * share a host (a shared host would share its connections and TLS session).
 */
export const SITES = {
  /** The service's (bench/concurrent-scans.ts): the measured burst, the warm-up scan, the first burst. */
  service: { burst: 0, warmupScan: 10_000, firstBurst: 20_000 },
  /** The references' (bench/lib/client-child.ts): the scan whose requests bare undici replays, then as the service's. */
  client: { plan: 30_000, warmupScan: 30_001, firstBurst: 31_000, burst: 32_000 },
} as const;
