// The part of autocannon 9's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    amount?: number;
    duration?: number;
    connections?: number;
    pipelining?: number;
    /** Sampling interval (ms); an `amount` run only stops on a sample tick. */
    sampleInt?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram { average: number; mean: number; p50: number; p90: number; p99: number; max: number; total: number }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
