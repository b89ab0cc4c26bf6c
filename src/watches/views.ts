// A watch as the contract's Watch object (getWatch, deleteWatch): its settings, its runs with
// what each found, and its webhook's last deliveries.
import type { components } from '../../generated/api-types.ts';
import { reportUrlFor } from '../scans/archive.ts';
import { diffUrlFor } from '../scans/compare.ts';
import { listRuns, latestRun, type RunRow, type WatchRow } from '../storage/queries/watches.ts';
import { nextPeriod, periodMs, periodStart } from './schedule.ts';
import type { WatchService } from './service.ts';

export type WatchBody = components['schemas']['Watch'];
type RunBody = components['schemas']['WatchRun'];
type DeliveryBody = components['schemas']['WebhookDelivery'];

function runBody(baseUrl: string, r: RunRow): RunBody {
  return {
    period: r.period, state: r.state, baseline: r.period === 0 || (r.alerted_at !== null && r.previous_scan_id === null),
    scanId: r.scan_id, reportUrl: r.scan_id ? reportUrlFor(baseUrl, r.scan_id) : null,
    headline: (r.headline as RunBody['headline']) ?? null, score: r.score, startedAt: r.started_at, finishedAt: r.finished_at,
    diffUrl: r.previous_scan_id && r.scan_id ? diffUrlFor(baseUrl, r.previous_scan_id, r.scan_id) : null,
    changes: r.changes ? JSON.parse(r.changes) as RunBody['changes'] : [],
    alertMail: r.alert_mail ?? null,
    error: r.error,
  };
}

export async function watchBody(s: WatchService, w: WatchRow, intervalS: number | undefined): Promise<WatchBody> {
  const d = s.d;
  const len = periodMs(w.every, intervalS);
  let nextRunAt: string | null = null;
  if (w.status === 'active' && w.confirmed_at) {
    const anchor = Date.parse(w.confirmed_at);
    const last = await latestRun(d.db, w.id);
    const next = last ? (last.state === 'running' ? last.period : nextPeriod(anchor, len, last.period, d.now().getTime())) : 0;
    nextRunAt = new Date(periodStart(anchor, len, next)).toISOString();
  }
  return {
    watchId: w.id, domain: w.domain, status: w.status, every: w.every, periodSeconds: Math.round(len / 1000), threshold: w.threshold,
    notify: { email: Boolean(w.notify_email), webhookUrl: w.webhook_url },
    createdAt: w.created_at, confirmedAt: w.confirmed_at, endedAt: w.ended_at, nextRunAt,
    runs: (await listRuns(d.db, w.id, 50)).map((r) => runBody(d.baseUrl, r)),
    deliveries: (await d.deliveries.list(w.id, 20)).map((x) => ({ ...x, type: x.type as DeliveryBody['type'] })),
  };
}
