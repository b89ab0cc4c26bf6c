/**
 * SVCB RDATA (RFC 9460 §2.2), read from the raw bytes dns-packet hands back for a type it does
 * not know: SvcPriority (u16), TargetName (uncompressed, §2.2), then SvcParams as key (u16),
 * length (u16), value, in strictly increasing key order (§2.2). Values of the keys §7 defines are
 * decoded (alpn, port, ipv4hint, ipv6hint, mandatory, no-default-alpn); others stay hex.
 * Checked against RFC 9460 Appendix D's wire-format vectors (test/net/svcb.test.ts).
 */
import { isIP } from 'node:net';

export interface SvcbRecord {
  priority: number;
  /** '.' is the root: "the owner name" in ServiceMode (§2.5.2). */
  target: string;
  params: Record<string, string>;
}

const KEYS: Record<number, string> = { 0: 'mandatory', 1: 'alpn', 2: 'no-default-alpn', 3: 'port', 4: 'ipv4hint', 5: 'ech', 6: 'ipv6hint' };

export function decodeSvcb(rdata: Buffer): { ok: true; record: SvcbRecord } | { ok: false; reason: string } {
  try {
    if (rdata.length < 3) return { ok: false, reason: 'RDATA shorter than a priority and a name' };
    const priority = rdata.readUInt16BE(0);
    let at = 2;
    const labels: string[] = [];
    for (;;) {
      const len = rdata[at++]!;
      if (len === undefined) return { ok: false, reason: 'TargetName runs past the RDATA' };
      if (len === 0) break;
      if (len > 63) return { ok: false, reason: 'TargetName is compressed or malformed (§2.2 forbids compression)' };
      if (at + len > rdata.length) return { ok: false, reason: 'TargetName runs past the RDATA' };
      labels.push(rdata.subarray(at, at + len).toString('latin1'));
      at += len;
    }
    const params: Record<string, string> = {};
    let last = -1;
    while (at < rdata.length) {
      if (at + 4 > rdata.length) return { ok: false, reason: 'a SvcParam header runs past the RDATA' };
      const key = rdata.readUInt16BE(at);
      const len = rdata.readUInt16BE(at + 2);
      at += 4;
      if (key <= last) return { ok: false, reason: 'SvcParamKeys are not in strictly increasing order' };
      if (at + len > rdata.length) return { ok: false, reason: 'a SvcParam value runs past the RDATA' };
      last = key;
      params[KEYS[key] ?? `key${key}`] = paramValue(key, rdata.subarray(at, at + len));
      at += len;
    }
    return { ok: true, record: { priority, target: labels.length ? `${labels.join('.')}.` : '.', params } };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

function paramValue(key: number, v: Buffer): string {
  switch (key) {
    case 0: return Array.from({ length: v.length / 2 }, (_, i) => KEYS[v.readUInt16BE(2 * i)] ?? `key${v.readUInt16BE(2 * i)}`).join(',');
    case 1: {
      const ids: string[] = [];
      for (let i = 0; i < v.length;) { const n = v[i]!; ids.push(v.subarray(i + 1, i + 1 + n).toString('latin1')); i += 1 + n; }
      return ids.join(',');
    }
    case 2: return '';
    case 3: return String(v.readUInt16BE(0));
    case 4: return Array.from({ length: v.length / 4 }, (_, i) => [...v.subarray(4 * i, 4 * i + 4)].join('.')).join(',');
    case 6: return Array.from({ length: v.length / 16 }, (_, i) => ipv6(v.subarray(16 * i, 16 * i + 16))).join(',');
    default: return v.toString('hex');
  }
}

function ipv6(b: Buffer): string {
  const groups = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(2 * i).toString(16)).join(':');
  // The canonical short form comes from the URL parser, which compresses as RFC 5952 says.
  const short = new URL(`http://[${groups}]/`).hostname.slice(1, -1);
  return isIP(short) === 6 ? short : groups;
}
