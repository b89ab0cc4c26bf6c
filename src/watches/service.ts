// Watches: a domain rescanned every day or week, each run an ordinary archived scan, with an
// alert (mail, signed webhook) when something counted as a change happened since the previous
// run (alerts.ts). This module holds what requests do; runner.ts what the job engine does.
//
//   create       no key: the human-verification gate (when on) and one point of the caller's
//                per-IP budget, POST /scan's own bucket (429 when spent); stored
//                pending-confirmation and a confirmation mail queued (capped per mailbox; over
//                the cap nothing is stored, 429). A key: one scan of its day spent,
//                stored active, period 0 (the baseline) enqueued; an engine that cannot take it
//                leaves nothing and gives the scan back (503)
//   confirm      the mail's link: pending → active, period 0 enqueued
//   end          deleteWatch or one-click unsubscribe: → ended; no run starts after (runs read
//                the status first), the queued job is cancelled as a courtesy
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { errors } from '../errors.ts';
import { JobEngineUnavailable, type JobEngine } from '../jobs/index.ts';
import type { ApiKeys, Budget } from '../keys/service.ts';
import { bearerOf } from '../keys/secret.ts';
import { excludedError, isExcluded } from '../scans/excluded.ts';
import { checkLead } from '../scans/lead.ts';
import type { ScanLimits } from '../scans/limits.ts';
import type { ScanService } from '../scans/service.ts';
import type { TurnstileGate } from '../scans/turnstile.ts';
import type { Resolver } from '../scans/types.ts';
import { queueCappedMail } from '../storage/queries/archiveScan.ts';
import { activateWatch, deleteWatchRow, endWatch, findWatch, insertWatch, type WatchRow } from '../storage/queries/watches.ts';
import { deriveWebhookSecret } from '../webhooks/secrets.ts';
import { DEFAULT_THRESHOLD } from './alerts.ts';
import type { WebhookDeliveries, WebhookEvent } from '../webhooks/deliveries.ts';
import { confirmationMail } from './mails.ts';
import { tokenMatches, watchToken, type TokenKind } from './tokens.ts';
import { checkWebhookUrl } from './webhook-url.ts';

export interface WatchDeps {
  db: Knex;
  log: Logger;
  now: () => Date;
  baseUrl: string;
  excludedDomains: readonly string[];
  jobs: JobEngine;
  keys: ApiKeys;
  scans: ScanService;
  /** POST /scan's limits: an unkeyed createWatch spends a point of the caller's per-IP budget. */
  limits: Pick<ScanLimits, 'consumeIp'>;
  /** POST /scan's human-verification gate, asked of an unkeyed createWatch. */
  turnstile: TurnstileGate;
  /** Names resolved as the scanner resolves them (SCAN_RESOLVE, then DNS). */
  resolve: Resolver;
  masterKey: () => Promise<string>;
  mailPerRecipientPerDay: number;
  onMailQueued?: () => void;
  /** Webhook delivery (src/webhooks/deliveries.ts). */
  deliveries: WebhookDeliveries;
  /** The change feed (src/feed/service.ts): a key's watches' events, for listChanges. */
  changes?: { record(keyId: string, event: WebhookEvent & { watchId: string }): Promise<void> };
  /** Enqueues a period's run (runner.ts). */
  enqueueRun: (watchId: string, period: number, delayMs: number) => Promise<void>;
  cancelRuns: (watch: WatchRow) => Promise<void>;
  /** WATCH_CONFIRM_TTL_S: a watch pending confirmation longer than this is gone (expiry.ts deletes it). */
  confirmTtlS: number;
}

export interface WatchInput {
  domain?: unknown;
  lead?: unknown;
  every?: 'day' | 'week';
  notify?: { email?: boolean; webhookUrl?: string };
  threshold?: number;
  turnstileToken?: unknown;
}

export interface Created {
  watchId: string;
  status: 'pending-confirmation' | 'active';
  manageUrl: string;
  webhookSecret?: string;
  note: string;
  budget?: Budget;
}

/** testWatch sends at most one event per watch in each window of this length. */
export const TEST_WINDOW_MS = 60_000;

const GONE_404 = () => errors.notFound('No watch with this id.', 'A watch is visible only with its manage token (in manageUrl) or the key that created it.');

export class WatchService {
  readonly d: WatchDeps;

  constructor(deps: WatchDeps) {
    this.d = deps;
  }

  async token(watchId: string, kind: TokenKind): Promise<string> {
    return watchToken(await this.d.masterKey(), watchId, kind);
  }

  async links(watchId: string) {
    const base = `${this.d.baseUrl}/watches/${watchId}`;
    const mail = await this.token(watchId, 'mail');
    return { self: base, manage: `${base}?token=${await this.token(watchId, 'manage')}`, confirm: `${base}/confirm?token=${mail}`, unsubscribe: `${base}/unsubscribe?token=${mail}` };
  }

  /** `clientIp` as POST /scan reads it (TRUST_PROXY honoured): the per-IP budget an unkeyed watch spends. */
  async create(authorization: string | undefined, input: WatchInput, clientIp: string): Promise<Created> {
    const key = authorization === undefined ? undefined : await this.d.keys.authenticate(authorization);
    const lead = checkLead(input.lead);
    const domain = this.d.scans.readDomain(input.domain);
    if (await isExcluded(this.d.db, this.d.excludedDomains, domain)) throw excludedError(domain);
    const email = input.notify?.email ?? true;
    if (!email && input.notify?.webhookUrl === undefined) throw errors.badRequest('A watch must notify somewhere.', 'Leave `notify.email` on, or give `notify.webhookUrl`.');
    // In POST /scan's order: the gate, then the name's DNS, then the budget (a request refused
    // for its input spends none). A key pays with its own daily budget instead.
    if (!key) await this.d.turnstile.check(input.turnstileToken, clientIp);
    const webhookUrl = input.notify?.webhookUrl === undefined ? null : await checkWebhookUrl(input.notify.webhookUrl, this.d.resolve);
    if (!key) await this.d.limits.consumeIp(clientIp);
    const now = this.d.now();
    const id = randomUUID();
    const row: WatchRow = {
      id, domain, lead_name: lead.name, lead_email: lead.email, lead_phone: lead.phone, lead_role: lead.role, every: input.every ?? 'week',
      notify_email: email, webhook_url: webhookUrl, secret_version: 1, threshold: input.threshold ?? DEFAULT_THRESHOLD,
      status: key ? 'active' : 'pending-confirmation', key_id: key?.keyId ?? null, created_at: now.toISOString(),
      confirmed_at: key ? now.toISOString() : null, ended_at: null, ended_by: null,
    };
    const master = await this.d.masterKey();
    const links = await this.links(id);
    const base = { watchId: id, manageUrl: links.manage, ...(webhookUrl ? { webhookSecret: deriveWebhookSecret(master, id, 1) } : {}) };
    if (key) {
      const budget = await this.d.keys.consume(key.keyId, 1);
      await insertWatch(this.d.db, row).catch(async (err: unknown) => {
        await this.d.keys.refund(key.keyId, 1, now).catch(() => undefined);
        throw err;
      });
      try {
        await this.d.enqueueRun(id, 0, 0);
      } catch (err) {
        this.d.log.error({ err, watchId: id }, 'watch not started: the job engine is unavailable');
        await deleteWatchRow(this.d.db, id).catch(() => undefined);
        await this.d.keys.refund(key.keyId, 1, now).catch(() => undefined);
        throw errors.unavailable('The watch could not be started: the job engine is unavailable. Nothing was stored and no scan was spent.', 'Try again in a minute.', err);
      }
      return { ...base, status: 'active', budget, note: 'The watch is active; its first run (the baseline, which never alerts) is queued.' };
    }
    await insertWatch(this.d.db, row);
    const mail = confirmationMail({ watchId: id, domain, to: lead.email, leadName: lead.name, every: row.every, unsubscribeUrl: links.unsubscribe, confirmUrl: links.confirm });
    let queued;
    try {
      queued = await queueCappedMail(this.d.db, mail, { perRecipientPerDay: this.d.mailPerRecipientPerDay, queuedAt: now.toISOString() }, { watchId: id });
    } catch (err) {
      await deleteWatchRow(this.d.db, id).catch(() => undefined);
      throw err;
    }
    if (queued === 'capped') {
      await deleteWatchRow(this.d.db, id);
      throw errors.tooMany(24 * 3600, `This mailbox has already received ${this.d.mailPerRecipientPerDay} mails from us in the last 24 hours, so no confirmation can be sent; nothing was stored.`, 'Try again tomorrow, or create the watch with a partner key.');
    }
    this.d.onMailQueued?.();
    return { ...base, status: 'pending-confirmation', note: `A confirmation link was sent to ${lead.email}; the watch runs only once it is followed.` };
  }

  /** The watch if the request holds its manage token or the key that created it; 401 with neither, 404 otherwise. */
  async authorize(id: string, token: string | undefined, authorization: string | undefined): Promise<WatchRow> {
    if (token === undefined && bearerOf(authorization) === undefined) {
      throw errors.unauthorized('A manage token or an API key is required.', 'Use the manageUrl createWatch returned (its ?token=), or the partner key that created the watch.');
    }
    const row = await this.#find(id);
    if (token !== undefined) {
      if (row && tokenMatches(await this.d.masterKey(), id, 'manage', token)) return row;
      throw GONE_404();
    }
    const key = await this.d.keys.authenticate(authorization);
    if (!row || row.key_id !== key.keyId) throw GONE_404();
    return row;
  }

  /** The watch if `token` is its mail token (or, where `manage` is allowed, its manage token); undefined otherwise. */
  async byLink(id: string, token: string | undefined, manage: boolean): Promise<WatchRow | undefined> {
    const row = await this.#find(id);
    if (!row) return undefined;
    const master = await this.d.masterKey();
    return tokenMatches(master, id, 'mail', token) || (manage && tokenMatches(master, id, 'manage', token)) ? row : undefined;
  }

  /** pending → active and its baseline queued; an active watch is left as it is. */
  async confirm(row: WatchRow): Promise<WatchRow> {
    if (row.status === 'ended') throw errors.gone('This watch has ended (unsubscribed or deleted); it cannot be confirmed.');
    const at = this.d.now().toISOString();
    if (await activateWatch(this.d.db, row.id, at, this.#expiredBefore())) {
      try {
        await this.d.enqueueRun(row.id, 0, 0);
      } catch (err) {
        await this.d.db('watches').where({ id: row.id, status: 'active' }).update({ status: 'pending-confirmation', confirmed_at: null });
        throw errors.unavailable('The watch could not be started: the job engine is unavailable. It is still waiting for confirmation.', 'Follow the link again in a minute.', err);
      }
    }
    const now = await this.#find(row.id);
    // Expired (or swept) between the link's check and the button: as gone as an unknown watch.
    if (!now) throw errors.notFound('No watch with this id, or the link\'s token is not this watch\'s.', 'An unconfirmed watch expires; create it again.');
    return now;
  }

  /** Created before this, a watch still pending confirmation has expired. */
  #expiredBefore(): string {
    return new Date(this.d.now().getTime() - this.d.confirmTtlS * 1000).toISOString();
  }

  /** The watch, unless it is unknown or an expired unconfirmed one (gone, even before the sweep deletes it). */
  async #find(id: string): Promise<WatchRow | undefined> {
    const row = await findWatch(this.d.db, id);
    if (row?.status === 'pending-confirmation' && row.created_at < this.#expiredBefore()) return undefined;
    return row;
  }

  async end(row: WatchRow, by: 'deleted' | 'unsubscribed'): Promise<WatchRow> {
    if (await endWatch(this.d.db, row.id, this.d.now().toISOString(), by)) {
      await this.d.cancelRuns(row).catch((err: unknown) => this.d.log.warn({ err, watchId: row.id }, 'queued watch run not cancelled (it will find the watch ended)'));
      // Its webhook's pending retries are never attempted again.
      await this.d.deliveries?.forgetWatch(row.id).catch((err: unknown) => this.d.log.warn({ err, watchId: row.id }, 'webhook deliveries of an ended watch not forgotten'));
    }
    return (await findWatch(this.d.db, row.id))!;
  }

  /** testWatch: a signed readiness.test event to the watch's webhook. */
  /** Sends one of the watch's finished deliveries again (redeliverWebhook): an active watch only, once a minute per delivery. */
  async redeliver(row: WatchRow, eventId: string): Promise<{ eventId: string; type: 'readiness.changed' | 'readiness.test' }> {
    if (row.status !== 'active') throw errors.conflict(row.status === 'ended' ? 'This watch has ended.' : 'This watch is not confirmed yet: nothing is sent to its webhook until it is.');
    let out;
    try {
      out = await this.d.deliveries.redeliver(row.id, eventId);
    } catch (err) {
      if (err instanceof JobEngineUnavailable) throw errors.unavailable('The delivery could not be queued again: the job engine is unavailable.', 'Try again in a minute.', err);
      throw err;
    }
    if (out.outcome === 'not-found') throw errors.notFound('This watch has no delivery with that event id.', 'getWatch lists the watch\'s deliveries and their event ids.');
    if (out.outcome === 'pending') throw errors.conflict('This delivery is still on its way; nothing more was queued.', 'getWatch shows its attempts and when the next is due.');
    if (out.outcome === 'too-soon') throw errors.tooMany(60, 'This delivery was sent again less than a minute ago.', 'getWatch shows how it went; ask again in a minute.');
    return { eventId, type: out.type === 'readiness.test' ? 'readiness.test' : 'readiness.changed' };
  }

  async test(row: WatchRow): Promise<{ eventId: string }> {
    if (row.status === 'ended') throw errors.conflict('This watch has ended.');
    // Opt-in first: nothing at all goes to a webhook before the mailbox confirmed the watch.
    if (row.status !== 'active') throw errors.conflict('This watch is not confirmed yet: nothing is sent to its webhook until it is.', 'Follow the confirmation link mailed to the watch\'s address, then test again.');
    if (!row.webhook_url) throw errors.conflict('This watch has no webhook URL to test.', 'Create a watch with `notify.webhookUrl` to receive webhooks.');
    // One test event per watch per minute: its id names the minute, and a delivery is stored
    // once per event id, so however many requests race, one event of a window goes out (once).
    const now = this.d.now().getTime();
    const window = Math.floor(now / TEST_WINDOW_MS);
    const eventId = `evt-test-${row.id}.${window}`;
    let sent;
    try {
      sent = await this.d.deliveries.send({
        watchId: row.id, url: row.webhook_url, secretVersion: row.secret_version,
        event: { id: eventId, type: 'readiness.test', watchId: row.id, domain: row.domain, sentAt: new Date(now).toISOString() },
      });
    } catch (err) {
      if (err instanceof JobEngineUnavailable) throw errors.unavailable('The test event could not be queued: the job engine is unavailable.', 'Try again in a minute.', err);
      throw err;
    }
    if (sent === 'not-active') throw errors.conflict('This watch has ended.');
    if (sent === 'duplicate') {
      throw errors.tooMany(((window + 1) * TEST_WINDOW_MS - now) / 1000, `This watch's webhook had its test event of this minute (${eventId}).`, 'getWatch shows how it went; test again next minute.');
    }
    return { eventId };
  }
}
