// The bench waits for the loopback's TIME_WAIT to drain before a measured burst
// (bench/lib/time-wait.ts); a misread count would make it wait for nothing or never.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { timeWaitOf, timeWaitSockets } from '../../bench/lib/time-wait.ts';

// Read off this project's bench machine (Linux 6.18) during a run, 2026-11-27.
const SOCKSTAT = `sockets: used 26
TCP: inuse 11 orphan 0 tw 26334 alloc 14 mem 368
UDP: inuse 0 mem 0
UDPLITE: inuse 0
RAW: inuse 0
FRAG: inuse 0 memory 0
`;

test('bench TIME_WAIT: the count is read from the TCP line of /proc/net/sockstat, not from another protocol or field', () => {
  assert.equal(timeWaitOf(SOCKSTAT), 26334);
  assert.equal(timeWaitOf(SOCKSTAT.replace('tw 26334', 'tw 0')), 0);
  assert.equal(timeWaitOf('UDP: inuse 0 mem 0\n'), null);
  assert.equal(timeWaitOf(''), null);
});

test('bench TIME_WAIT: on Linux this machine\'s own count is a number; elsewhere it is unknown, not zero', () => {
  const n = timeWaitSockets();
  if (fs.existsSync('/proc/net/sockstat')) assert.ok(Number.isInteger(n) && n! >= 0, String(n));
  else assert.equal(n, null);
});
