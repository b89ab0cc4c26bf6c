// What became of a run's alert mail: `queued` (in the outbox, sent by the mailer) or `capped`
// (not sent: the recipient already had MAIL_PER_RECIPIENT_PER_DAY mails that day). Before it,
// a capped alert left only a log line, so the run looked as if it had mailed; getWatch now
// shows it. Null: no alert mail was due (no change, the baseline, or mail not asked for).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('watch_runs', (t) => {
    t.string('alert_mail', 8).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('watch_runs', (t) => t.dropColumn('alert_mail'));
}
