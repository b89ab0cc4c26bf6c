// A finished run's alerts, decided once and sent at most once each, however often the run's
// job is delivered: the mail's outbox id is "watch-alert-<watch>.<period>" (queued once), the
// webhook's event id is "evt-<watch>.<period>" (delivered once, src/webhooks/deliveries.ts),
// and the run row records that this step is done only after both were handed over. The
// baseline (no earlier done run) never alerts.
import type { ReportDiff } from '../changes/diff.ts';
import { compareArchived } from '../scans/compare.ts';
import { reportUrlFor } from '../scans/archive.ts';
import { queueCappedMail } from '../storage/queries/archiveScan.ts';
import { markAlerted, previousDoneRun, watchIsActive, type AlertMail, type RunRow, type WatchRow } from '../storage/queries/watches.ts';
import { changesWorthAlert, type WatchChange } from './alerts.ts';
import { alertMail } from './mails.ts';
import type { WatchService } from './service.ts';

export function changedEventId(watchId: string, period: number): string {
  return `evt-${watchId}.${period}`;
}

export async function notifyRun(s: WatchService, w: WatchRow, run: RunRow): Promise<void> {
  const d = s.d;
  const at = () => d.now().toISOString();
  const previous = await previousDoneRun(d.db, w.id, run.period);
  if (!previous?.scan_id || !run.scan_id) {
    await markAlerted(d.db, w.id, run.period, null, '[]', at());
    return;
  }
  let changes: WatchChange[] = [];
  let diff: ReportDiff | undefined;
  let mail: AlertMail | null = null;
  if (previous.scan_id !== run.scan_id) {
    diff = await compareArchived(d.db, d.baseUrl, previous.scan_id, run.scan_id);
    changes = changesWorthAlert(diff, w.threshold);
  }
  // Read again now the alert is decided: a watch ended during its run's scan alerts nobody
  // (and the mailer and each webhook attempt ask once more, right before anything leaves).
  if (diff && changes.length > 0 && !(await watchIsActive(d.db, w.id))) {
    d.log.info({ watchId: w.id, period: run.period }, 'watch alert not sent: the watch ended during its run');
    await markAlerted(d.db, w.id, run.period, previous.scan_id, JSON.stringify(changes), at());
    return;
  }
  if (diff && changes.length > 0) {
    const links = await s.links(w.id);
    if (w.notify_email) {
      const queued = await queueCappedMail(d.db, alertMail({
        watchId: w.id, domain: w.domain, to: w.lead_email, leadName: w.lead_name, every: w.every, unsubscribeUrl: links.unsubscribe,
        period: run.period, changes, summary: diff.summary, fromUrl: reportUrlFor(d.baseUrl, previous.scan_id), toUrl: reportUrlFor(d.baseUrl, run.scan_id), diffUrl: diff.diffUrl,
      }), { perRecipientPerDay: d.mailPerRecipientPerDay, queuedAt: at() }, { watchId: w.id });
      if (queued === 'queued') d.onMailQueued?.();
      // Recorded on the run (getWatch shows it), so a capped alert is never mistaken for a sent one.
      mail = queued === 'capped' ? 'capped' : 'queued';
      if (queued === 'capped') d.log.info({ watchId: w.id, period: run.period }, 'watch alert not mailed: the recipient reached its daily cap');
    }
    const side = (scanId: string, r: { headline: string; score: number | null }) => ({ scanId, headline: r.headline, score: r.score, reportUrl: reportUrlFor(d.baseUrl, scanId) });
    const event = {
      id: changedEventId(w.id, run.period), type: 'readiness.changed' as const, watchId: w.id, domain: w.domain,
      from: side(previous.scan_id, { headline: diff.headline.before, score: diff.score.before }),
      to: side(run.scan_id, { headline: diff.headline.after, score: diff.score.after }),
      changes, diffUrl: diff.diffUrl,
    };
    // A key's watches also feed its change feed (listChanges), webhook or not; stored once by the event id.
    if (w.key_id && d.changes) await d.changes.record(w.key_id, event);
    if (w.webhook_url) await d.deliveries.send({ watchId: w.id, url: w.webhook_url, secretVersion: w.secret_version, event });
  }
  await markAlerted(d.db, w.id, run.period, previous.scan_id, JSON.stringify(changes), at(), mail);
}
