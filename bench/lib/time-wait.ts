// Sockets in TIME_WAIT, and waiting for them to drain before a measurement.
//
// The test world's two proxies reach every test site at one address and port (127.0.0.2 and
// 127.0.0.3 to 127.0.0.1:<world port>), and each connection they close keeps its port for 60 s in
// TIME_WAIT: after one round of the concurrent-scans bench about 25,000 were held, near the
// 28,232 ports of Linux's default ephemeral range towards that one address. A burst started
// there measured 1.45 and 1.73 MiB per scan in flight where the same burst on a drained table
// measured 0.89 (bench/results.md, notes). Real sites are many addresses, so this is the
// harness's state, not the service's.
import { readFileSync } from 'node:fs';

/** The TIME_WAIT count of a /proc/net/sockstat text ("TCP: inuse 11 orphan 0 tw 26334 …"), or null. */
export function timeWaitOf(sockstat: string): number | null {
  const m = /^TCP:.*\btw (\d+)/m.exec(sockstat);
  return m ? Number(m[1]) : null;
}

/** TCP sockets in TIME_WAIT on this machine (Linux: /proc/net/sockstat), or null elsewhere. */
export function timeWaitSockets(): number | null {
  try {
    return timeWaitOf(readFileSync('/proc/net/sockstat', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Waits until at most `limit` sockets are in TIME_WAIT, or `maxMs` passes (they expire 60 s
 * after closing, so a minute and a half always suffices). Returns the count it stopped at.
 */
export async function settleTimeWait(limit = 3_000, maxMs = 90_000): Promise<number | null> {
  const until = Date.now() + maxMs;
  let n = timeWaitSockets();
  while (n !== null && n > limit && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1_000));
    n = timeWaitSockets();
  }
  return n;
}
