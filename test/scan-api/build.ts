// Builds the scan services over a real test database for the scan-api tests.
import type { Knex } from 'knex';
import { ScanAdmission } from '../../src/scans/admission.ts';
import { Coalescer, memoryRecentStore } from '../../src/scans/coalesce.ts';
import { createScanLimits } from '../../src/scans/limits.ts';
import { ScanService } from '../../src/scans/service.ts';
import { createTurnstileGate } from '../../src/scans/turnstile.ts';
import type { Resolver, SiteScanner } from '../../src/scans/types.ts';
import { fakeResolver, silentLog } from './fixtures.ts';

export interface BuildOptions {
  db: Knex;
  scanner: SiteScanner;
  now?: () => Date;
  resolve?: Resolver;
  excluded?: string[];
  turnstile?: { secret: string; url: string };
  perDomain?: { points: number; durationS: number };
  perIp?: { points: number; durationS: number };
  windowS?: number;
  baseUrl?: string;
  deadlineMs?: number;
  mailPerRecipientPerDay?: number;
  admission?: ScanAdmission;
}

export function buildService(o: BuildOptions): ScanService {
  const now = o.now ?? (() => new Date());
  return new ScanService({
    db: o.db, log: silentLog, now, baseUrl: o.baseUrl ?? 'http://localhost:8080', excludedDomains: o.excluded ?? [],
    scanner: o.scanner, resolve: o.resolve ?? fakeResolver(),
    limits: createScanLimits({ perDomain: o.perDomain ?? { points: 3, durationS: 60 }, perIp: o.perIp ?? { points: 1000, durationS: 1800 } }),
    coalescer: new Coalescer({ windowMs: (o.windowS ?? 45) * 1000, store: memoryRecentStore(() => now().getTime()), nowMs: () => now().getTime() }),
    admission: o.admission ?? new ScanAdmission(),
    turnstile: createTurnstileGate(o.turnstile?.secret, o.turnstile?.url ?? 'http://127.0.0.1:9/verify'),
    deadlineMs: o.deadlineMs ?? 25000, mailPerRecipientPerDay: o.mailPerRecipientPerDay ?? 3,
  });
}
