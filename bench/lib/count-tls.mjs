// Preloaded into the service by bench/cpu-profile.ts: counts TLS client connections and writes
// the running total to $BENCH_TLS_COUNT_FILE, so a benchmark can say how many handshakes a scan cost.
import tls from 'node:tls';
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_TLS_COUNT_FILE;
let count = 0;
const connect = tls.connect;
tls.connect = function countedConnect(...args) {
  count++;
  return connect.apply(this, args);
};
if (file) setInterval(() => writeFileSync(file, String(count)), 100).unref();
