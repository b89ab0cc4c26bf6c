// Drains the mail outbox: claim (lease) → send → mark, with exponential backoff on failure.
//
// Delivery guarantee: a mail is never lost (it stays in the outbox until marked sent or out
// of attempts) and is sent once in every case but one: a crash after the SMTP server accepted
// it and before the row was marked. Then the lease expires and the mail is sent again with
// the same Message-ID, which receivers use to spot the duplicate (and the .eml transport
// overwrites the same file). Nothing short of a two-phase commit with the SMTP server can
// close that window; the lease makes it the only one.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { claimMail, markMailDropped, markMailFailed, markMailSent, watchStillMails, type MailRow } from '../storage/queries/mailOutbox.ts';
import { messageIdFor } from './compose.ts';
import type { MailTransport } from './transport.ts';

export interface MailerOptions {
  db: Knex;
  transport: MailTransport;
  from: string;
  baseUrl: string;
  log: Logger;
  now?: () => Date;
  /** How long a claimed mail stays ours; must exceed the transport's own timeouts. */
  leaseMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  /** Delay before retry number `attempt` (1-based). */
  backoffMs?: (attempt: number) => number;
  pollMs?: number;
  /** Told what each delivery came to (the metrics' counter). */
  onResult?: (result: 'sent' | 'failed' | 'given-up' | 'dropped') => void;
}

export const defaultBackoff = (attempt: number): number => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);

export class Mailer {
  readonly owner = randomUUID();
  private readonly o: Required<Omit<MailerOptions, 'now' | 'onResult'>> & Pick<MailerOptions, 'onResult'> & { now: () => Date };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(o: MailerOptions) {
    this.o = { leaseMs: 120_000, batchSize: 20, maxAttempts: 12, backoffMs: defaultBackoff, pollMs: 5000, now: () => new Date(), ...o };
  }

  /** One pass over the due mails; returns how many were sent and how many failed (a dropped mail, of an ended watch, is neither). */
  async drainOnce(): Promise<{ sent: number; failed: number }> {
    const now = this.o.now();
    const leaseUntil = new Date(now.getTime() + this.o.leaseMs).toISOString();
    const rows = await claimMail(this.o.db, this.owner, now.toISOString(), leaseUntil, this.o.batchSize);
    let sent = 0;
    let failed = 0;
    for (const row of rows) {
      const outcome = await this.deliver(row);
      if (outcome === 'sent') sent++;
      else if (outcome === 'failed') failed++;
    }
    return { sent, failed };
  }

  private async deliver(row: MailRow): Promise<'sent' | 'failed' | 'dropped'> {
    // A watch's mail (its confirmation, an alert) is read against the watch right before it
    // goes: one queued or claimed before an unsubscribe, a delete or the confirmation TTL never goes.
    if (row.watch_id && !(await watchStillMails(this.o.db, row.watch_id))) {
      await markMailDropped(this.o.db, row.id, this.owner, 'not sent: its watch had ended (unsubscribed, deleted or never confirmed) before it went out');
      this.o.log.info({ mailId: row.id, watchId: row.watch_id }, 'watch mail dropped: the watch has ended');
      this.o.onResult?.('dropped');
      return 'dropped';
    }
    try {
      await this.o.transport.send({
        id: row.id, messageId: messageIdFor(row.id, this.o.baseUrl), from: this.o.from, to: row.to_addr,
        subject: row.subject, text: row.text_body, html: row.html_body, date: new Date(row.created_at),
        ...(row.headers ? { headers: JSON.parse(row.headers) as Record<string, string> } : {}),
      });
    } catch (err) {
      const attempt = row.attempts + 1;
      const dead = attempt >= this.o.maxAttempts;
      const next = new Date(this.o.now().getTime() + this.o.backoffMs(attempt)).toISOString();
      const message = err instanceof Error ? err.message : String(err);
      await markMailFailed(this.o.db, row.id, this.owner, message, next, dead);
      this.o.onResult?.(dead ? 'given-up' : 'failed');
      this.o.log[dead ? 'error' : 'warn']({ mailId: row.id, attempt, dead, err: message }, dead ? 'report mail given up' : 'report mail failed; will retry');
      return 'failed';
    }
    await markMailSent(this.o.db, row.id, this.owner, this.o.now().toISOString());
    this.o.onResult?.('sent');
    this.o.log.info({ mailId: row.id }, 'report mail sent');
    return 'sent';
  }

  /** Polls the outbox until stop(); wake() runs a pass right away (after a new mail was queued). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drainOnce()
        .catch((err) => this.o.log.error({ err }, 'mail outbox pass failed'))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.schedule(this.o.pollMs);
        });
    }, ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.o.transport.close();
  }
}
