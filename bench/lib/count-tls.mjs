// Preloaded into the service by bench/cpu-profile.ts: counts TLS client connections, and how many
// resumed a session, and writes the running totals to $BENCH_TLS_COUNT_FILE as JSON, so a
// benchmark can say how many full handshakes a scan cost.
import tls from 'node:tls';
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_TLS_COUNT_FILE;
const counts = { connects: 0, resumed: 0 };
const connect = tls.connect;
tls.connect = function countedConnect(...args) {
  counts.connects++;
  const socket = connect.apply(this, args);
  socket.once('secureConnect', () => {
    if (socket.isSessionReused()) counts.resumed++;
  });
  return socket;
};
if (file) setInterval(() => writeFileSync(file, JSON.stringify(counts)), 100).unref();
