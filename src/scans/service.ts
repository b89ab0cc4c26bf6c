// The scan service behind POST /scan and the MCP scan_site tool: one place for the lead
// policy, the guard, exclusions, the human-verification gate, coalescing, rate limits, the
// scan itself, the archive write and the report mail.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { AppError, errors } from '../errors.ts';
import { coalesceKey, normalizeDomain } from '../net/domain.ts';
import { archiveScan } from '../storage/queries/archiveScan.ts';
import { composeReportMail } from '../mail/compose.ts';
import { archivedPayload, reportUrlFor, vendorsOf } from './archive.ts';
import { AdmissionTimeout, type ScanAdmission } from './admission.ts';
import type { Coalescer, Completed } from './coalesce.ts';
import { excludedError, isExcluded } from './excluded.ts';
import { checkLead, type Lead } from './lead.ts';
import type { RateState, ScanLimits } from './limits.ts';
import { outreachEligible } from './outreach.ts';
import { domainHint, guardName, preflightDns } from './preflight.ts';
import { checkScanRequest, type ScanAsk } from './request.ts';
import { ADMITTED, JOINED, ProgressRelays, QUEUED, tell, type ProgressListener } from './progress-relay.ts';
import { newUploadToken } from './token.ts';
import type { TurnstileGate } from './turnstile.ts';
import { ephemeralNote, tunnelSuffixOf } from './tunnels.ts';
import type { Profile, Resolver, ScanInput, ScanIntent, ScanOutcome, ScanReportBody, SiteScanner } from './types.ts';
import { intentKey } from '../scanner/intent-request.ts';
import { ScanWithdrawn } from './withdrawn.ts';

export interface ScanServiceDeps {
  db: Knex;
  log: Logger;
  now: () => Date;
  baseUrl: string;
  excludedDomains: readonly string[];
  scanner: SiteScanner;
  resolve: Resolver;
  limits: ScanLimits;
  coalescer: Coalescer;
  /** Lets site scans in while the instance has room; the wait counts against the deadline. */
  admission: ScanAdmission;
  turnstile: TurnstileGate;
  /** Whole-scan deadline, counted from when the scan asks for room; an engine that ignores it is cut off 5 s later. */
  deadlineMs: number;
  /** Report mails per recipient address in any 24 hours (MAIL_PER_RECIPIENT_PER_DAY). */
  mailPerRecipientPerDay: number;
  /** Called after a scan of `domain` is archived (read caches drop the domain's badge entry). */
  onArchived?: (domain: string) => void;
  /** Wakes the mailer after a mail was queued (optional; it also polls). */
  onMailQueued?: () => void;
}

/** A batch item's scan (src/batches/): background lane, no lead, no mail, no per-IP budget. */
export interface BatchItemScan {
  /** As the partner sent it; read and guarded like POST /scan's. */
  domain: string;
  profile?: Profile;
  /**
   * Runs inside the archive transaction when this item's own scan is archived; throwing rolls
   * the whole archive back, so an item already done elsewhere never gets a second report.
   * Throwing ScanWithdrawn (the race lost) also drops the report: never served nor remembered.
   */
  archiveAlso: (trx: Knex.Transaction, report: ScanReportBody) => Promise<void>;
  /**
   * Called once the scan has room, right before its first request to the site; throwing
   * ScanWithdrawn (the item cancelled meanwhile) stops it before anything is sent.
   */
  starting?: () => Promise<void>;
  /** Stops the wait for room (the job engine closing). */
  stop?: AbortSignal;
  /** Whose scan it is, for the archive's lead columns (a watch's lead); still no mail. Default: the batch's. */
  lead?: Lead;
}

/** The lead columns of a batch item's archived scan: no person asked, so no mail and no outreach. */
const BATCH_LEAD: Lead = { name: 'partner batch', email: '', phone: null, role: null };


/** What the scanning request itself gets beyond the shared result. */
interface Own { token?: string; rate: RateState; mail?: ScanReportBody['mail'] }

const MAIL_QUEUED = { status: 'queued', note: 'The report link is on its way to the contact address.' } as const;
function mailCapped(perDay: number): NonNullable<ScanReportBody['mail']> {
  return { status: 'not-sent', note: `This mailbox (its sub-addresses and other spellings count as one) has already received ${perDay} report mails in the last 24 hours; the report is archived at its link, but no mail was sent.` };
}

function headersOf(rate: RateState): ScanOutcome['headers'] {
  return { 'RateLimit-Limit': String(rate.limit), 'RateLimit-Remaining': String(rate.remaining) };
}

export class ScanService {
  private readonly d: ScanServiceDeps;
  /** Progress of the scans in flight here, heard by every request that shares one. */
  private readonly relays = new ProgressRelays();

  constructor(deps: ScanServiceDeps) {
    this.d = deps;
  }

  /** Normalises and guards a pasted domain; throws the 400. */
  readDomain(raw: unknown): string {
    if (typeof raw !== 'string') throw new AppError('INVALID_DOMAIN', { error: '`domain` is required.', hint: domainHint(raw) });
    const n = normalizeDomain(raw);
    if (!n.ok) throw new AppError('INVALID_DOMAIN', { error: n.message, hint: domainHint(raw) });
    guardName(n.domain, domainHint(raw));
    return n.domain;
  }

  async scan(input: ScanInput): Promise<ScanOutcome> {
    const lead = checkLead(input.lead);
    const domain = this.readDomain(input.domain);
    // Every other field as the contract declares it, whichever surface the request came through.
    const ask = checkScanRequest({ domain: input.domain, lead: input.lead, profile: input.profile, rubric: input.rubric, intent: input.intent, fresh: input.fresh, turnstileToken: input.turnstileToken });
    if (await isExcluded(this.d.db, this.d.excludedDomains, domain)) throw excludedError(domain);
    await this.d.turnstile.check(input.turnstileToken, input.clientIp);

    let ranOwn = false;
    const listener = input.onProgress;
    const run = (sink: ProgressListener | undefined) => {
      ranOwn = true;
      return this.runFresh(domain, lead, ask, input.clientIp, sink);
    };
    // The rubric and the intent change the report, so they are part of what must match to share a scan.
    const key = coalesceKey(domain, ask.profile, ask.rubric, intentKey(ask.intent));
    if (input.fresh === true) {
      // Bypasses both the window and any scan in flight, but later repeats may reuse it.
      const mine = await run(listener);
      await this.d.coalescer.remember(key, mine.shared);
      return this.served(mine.shared, mine.own);
    }
    const recent = await this.d.coalescer.recent(key);
    if (recent) {
      tell(listener, JOINED);
      return this.coalesced(domain, recent);
    }
    try {
      const shared = await this.relays.follow(key, listener, (sink) => this.d.coalescer.share(key, () => run(sink)));
      if (shared.leader) return this.served(shared.shared, shared.own);
      tell(listener, JOINED);
      return this.coalesced(domain, shared.shared);
    } catch (err) {
      // The scan we joined was refused for its own caller's budget (ours may still fit), or
      // withdrawn by its batch (cancelled, or its race lost: nothing of it is served).
      if (!ranOwn && (err instanceof ScanWithdrawn || (err instanceof AppError && err.code === 'RATE_LIMITED'))) {
        const mine = await run(listener);
        await this.d.coalescer.remember(key, mine.shared);
        return this.served(mine.shared, mine.own);
      }
      throw err;
    }
  }

  /**
   * A batch item, scanned exactly as POST /scan scans (guard, exclusions, coalescing, the
   * per-domain limit, the engine, the archive) minus the lead, its mail and the per-IP budget,
   * in the background lane of admission. `archivedHere` says whether this call archived the
   * report (through `archiveAlso`); otherwise the report came from a scan that someone else
   * started (coalesced) and is theirs.
   */
  async scanBatchItem(item: BatchItemScan): Promise<{ body: ScanReportBody; archivedHere: boolean }> {
    const domain = this.readDomain(item.domain);
    if (await isExcluded(this.d.db, this.d.excludedDomains, domain)) throw excludedError(domain);
    let ranOwn = false;
    const run = () => {
      ranOwn = true;
      return this.runFresh(domain, item.lead ?? BATCH_LEAD, item.profile ? { profile: item.profile } : {}, '', undefined, item);
    };
    const key = coalesceKey(domain, item.profile);
    const recent = await this.d.coalescer.recent(key);
    if (recent) return { body: recent.body as ScanReportBody, archivedHere: false };
    try {
      const shared = await this.d.coalescer.share(key, run);
      return { body: shared.shared.body as ScanReportBody, archivedHere: shared.leader && typeof shared.shared.body.reportUrl === 'string' };
    } catch (err) {
      if (!ranOwn && (err instanceof ScanWithdrawn || (err instanceof AppError && err.code === 'RATE_LIMITED'))) {
        const mine = await run();
        await this.d.coalescer.remember(key, mine.shared);
        return { body: mine.shared.body as ScanReportBody, archivedHere: typeof mine.shared.body.reportUrl === 'string' };
      }
      throw err;
    }
  }

  private served(shared: Completed, own: Own): ScanOutcome {
    const body = { ...(shared.body as ScanReportBody), coalesced: false };
    if (own.token) body.cliUploadToken = own.token;
    if (own.mail) body.mail = own.mail;
    return { body, headers: headersOf(own.rate) };
  }

  private async coalesced(domain: string, hit: Completed): Promise<ScanOutcome> {
    const ageMs = Math.max(0, Math.floor(this.d.now().getTime() - hit.completedAtMs));
    const body = { ...(hit.body as ScanReportBody), coalesced: true, ageMs };
    delete body.cliUploadToken;
    return { body, headers: headersOf(await this.d.limits.peek(domain)) };
  }

  private async runFresh(domain: string, lead: Lead, ask: ScanAsk, clientIp: string, onProgress: ProgressListener | undefined, batch?: BatchItemScan): Promise<{ shared: Completed; own: Own }> {
    await preflightDns(domain, this.d.resolve);
    const rate = batch ? await this.d.limits.consumeDomain(domain) : await this.d.limits.consume(domain, clientIp);
    const suffix = tunnelSuffixOf(domain);
    const { report, evidence, files } = await this.runEngine(domain, ask, onProgress, batch ? (batch.stop ?? true) : undefined, batch?.starting);
    const scanId = randomUUID();
    const body: ScanReportBody = {
      schemaVersion: report.schemaVersion, scanId, domain, scannedAt: report.scannedAt, headline: report.headline,
      reasons: report.reasons, confidence: report.confidence, confidenceNote: report.confidenceNote,
      vantagesConfirmed: report.vantagesConfirmed, outreachEligible: false, score: report.score, profile: report.profile,
      checks: report.checks, matrix: report.matrix, evidenceRefs: report.evidenceRefs, probeMethod: report.probeMethod,
      versions: report.versions,
      ...(report.preview ? { preview: report.preview } : {}),
      ...(report.platforms ? { platforms: report.platforms } : {}),
      ...(report.platformFixes ? { platformFixes: report.platformFixes } : {}),
      ...(report.robotsPatch ? { robotsPatch: report.robotsPatch } : {}),
      ...(report.robotsTxt ? { robotsTxt: report.robotsTxt } : {}),
      ...(report.intent ? { intent: report.intent } : {}),
    };
    if (suffix) {
      body.ephemeral = true;
      body.ephemeralNote = ephemeralNote(suffix);
      this.d.log.info({ domain, headline: body.headline, ephemeral: true }, 'scan served, not archived');
      return { shared: { body, completedAtMs: this.d.now().getTime() }, own: { rate } };
    }
    body.outreachEligible = outreachEligible({ archived: true, ephemeral: false, headline: body.headline, excluded: false, leadEmail: lead.email, domain });
    const token = newUploadToken();
    const reportUrl = reportUrlFor(this.d.baseUrl, scanId);
    let mailQueued: boolean;
    try {
      ({ mailQueued } = await archiveScan(this.d.db, {
        id: scanId, kind: 'site', domain, headline: body.headline, score: body.score.value, report: JSON.stringify(archivedPayload(body)),
        evidence: JSON.stringify(evidence), scanned_at: body.scannedAt, lead_name: lead.name, lead_email: lead.email,
        lead_phone: lead.phone, lead_role: lead.role, upload_token_hash: token.hash,
      }, vendorsOf(body), batch ? undefined : composeReportMail({
        scanId, domain, headline: body.headline, scoreDisplay: body.score.display, reportUrl, to: lead.email, leadName: lead.name,
      }), { perRecipientPerDay: this.d.mailPerRecipientPerDay, queuedAt: this.d.now().toISOString() }, files ?? [], batch ? (trx) => batch.archiveAlso(trx, body) : undefined));
    } catch (err) {
      if (err instanceof ScanWithdrawn) throw err;
      // A batch item or watch run has a job that retries it: served unarchived, it would end
      // "done" for good without its report (a PostgreSQL connection lost mid-transaction did
      // that to 3 items of 60, test/faults/postgres-cut.test.ts). It fails this attempt instead,
      // and nothing unarchived is kept for coalescing; the retry scans again unless its item
      // was finished meanwhile (then archiveAlso's "already finished" is what failed here).
      if (batch) {
        this.d.log.warn({ err, scanId, domain }, 'archive write failed; the scan is not served, its job decides whether to retry');
        throw err;
      }
      // The caller still gets the measurement; without an archive there is no link, no token, no mail.
      this.d.log.error({ err, scanId, domain }, 'archive write failed; serving the report unarchived');
      body.outreachEligible = false;
      return { shared: { body, completedAtMs: this.d.now().getTime() }, own: { rate } };
    }
    this.d.onArchived?.(domain);
    if (mailQueued) this.d.onMailQueued?.();
    else this.d.log.info({ scanId }, 'report mail not sent: recipient reached its daily cap');
    this.d.log.info({ scanId, domain, headline: body.headline }, 'scan archived');
    const mail = mailQueued ? MAIL_QUEUED : mailCapped(this.d.mailPerRecipientPerDay);
    return { shared: { body: { ...body, reportUrl }, completedAtMs: this.d.now().getTime() }, own: { rate, token: token.token, mail } };
  }

  private async runEngine(domain: string, ask: ScanAsk, onProgress: ProgressListener | undefined, background?: AbortSignal | true, starting?: () => Promise<void>) {
    // A background scan (a batch item) waits for room outside p-limit, before its deadline starts.
    if (background) await this.d.admission.roomForBackground(background === true ? undefined : background);
    const controller = new AbortController();
    const signal = controller.signal;
    // The deadline runs from the request, so time spent waiting for room is part of it.
    // Aborted with the reason the engine's own deadline gives (AbortSignal.timeout), so a request cut off
    // by either is classified the same (TIMEOUT).
    const deadline = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), this.d.deadlineMs);
    let timer: NodeJS.Timeout | undefined;
    // An engine that ignored its (by then aborted) signal would otherwise hold every joined request forever.
    const overdue = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('scan deadline passed')), this.d.deadlineMs + 5000);
    });
    try {
      // The form's progress says so when the scan has to wait for room, and when it starts.
      const queued = this.d.admission.wouldWait;
      if (queued) tell(onProgress, QUEUED);
      const scan = async () => {
        if (queued) tell(onProgress, ADMITTED);
        await starting?.();
        return this.d.scanner.scan(domain, { ...ask, signal, ...(onProgress ? { onProgress } : {}) });
      };
      return await Promise.race([this.d.admission.run(scan, signal, { background: background !== undefined }), overdue]);
    } catch (err) {
      if (err instanceof ScanWithdrawn) throw err;
      if (err instanceof AdmissionTimeout) {
        this.d.log.warn({ domain, running: this.d.admission.running, waiting: this.d.admission.waiting }, 'scan never started: no room before its deadline');
        throw errors.scanFailed('the service was busy with other scans until this scan\'s deadline passed; try again in a minute', domain);
      }
      this.d.log.warn({ err, domain }, 'scan could not complete');
      const detail = err instanceof Error ? err.message : String(err);
      throw errors.scanFailed(signal.aborted ? 'the scan deadline passed before it completed' : detail.slice(0, 300), domain);
    } finally {
      clearTimeout(deadline);
      clearTimeout(timer);
    }
  }
}
