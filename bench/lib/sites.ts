// The benchmark site's copies in the test world, for every benchmark that scans many sites.
/**
 * The n-th copy of the benchmark site. The world serves `<scenario>--<digits>` as a copy of the
 * scenario and answers any other name 404 (test/world/index.ts), so a name like
 * `open-basic--warmup` would be scanned as a site with no pages at all.
 */
export const benchSite = (n: number): string => `open-basic--${n}.world-fixtures.com`;
/** The headline of every copy of `open-basic`: a warm-up that gives another scanned something else. */
export const BENCH_HEADLINE = 'open';
