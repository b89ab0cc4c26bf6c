// Partner API keys: issue, list, revoke, authenticate a bearer, and spend a key's daily
// budget. This is the whole interface other services use (batches, watches):
//
//   const key = await keys.authenticate(req.get('authorization'));   // KeyRecord, or a 401 AppError
//   const budget = await keys.consume(key.keyId, n);                 // Budget, or a 429 (503 if the store is down)
//   res.set(rateLimitHeaders(budget));                               // RateLimit-Policy and RateLimit
//
// A key is shown once, at creation, and stored only as its hash (secret.ts). The budget is
// `dailyScans` per UTC calendar day, shared by every instance (budget.ts).
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { AppError, errors } from '../errors.ts';
import { findApiKey, findApiKeyByHash, insertApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from '../storage/queries/apiKeys.ts';
import { databaseBudget, dayOf, redisBudget, type BudgetStore } from './budget.ts';
import { secretsEqual } from '../security/compare.ts';
import { bearerOf, hashKey, looksLikeKey, newKey } from './secret.ts';

export interface KeyRecord {
  keyId: string;
  name: string;
  dailyScans: number;
}

export interface KeySummary extends KeyRecord {
  createdAt: string;
  revokedAt: string | null;
}

export interface Budget {
  /** dailyScans. */
  limit: number;
  /** Scans left today (after this spend). */
  remaining: number;
  /** Seconds until the budget refills (00:00 UTC). */
  resetS: number;
}

/** Who made a request: a partner's key, or the operator (OPERATOR_TOKEN), who sees every key's work. */
export type Caller = { kind: 'partner'; key: KeyRecord } | { kind: 'operator' };

export interface ApiKeysOptions {
  db: Knex;
  /** Shares budgets through Redis; without it they are counted in the database. */
  redis?: Redis;
  /** Redis key prefix of the budget counters (below the client's own REDIS_KEY_PREFIX). */
  prefix?: string;
  now: () => Date;
  /** The operator's bearer token; identify() accepts it besides partner keys. */
  operatorToken?: string;
}

export const NAME_MAX = 120;
export const DAILY_SCANS_MAX = 10_000_000;

/** RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers): one policy, "daily". */
export function rateLimitHeaders(b: Budget): Record<string, string> {
  return {
    'RateLimit-Policy': `"daily";q=${b.limit};w=86400`,
    RateLimit: `"daily";r=${b.remaining};t=${b.resetS}`,
  };
}

function record(row: ApiKeyRow): KeyRecord {
  return { keyId: row.id, name: row.name, dailyScans: row.daily_scans };
}

const HINT = 'Send your partner API key as `Authorization: Bearer ark_…`; the operator issues keys.';

export class ApiKeys {
  readonly #db: Knex;
  readonly #store: BudgetStore;
  readonly #now: () => Date;
  readonly #operatorToken: string | undefined;

  constructor(o: ApiKeysOptions) {
    this.#db = o.db;
    this.#store = o.redis ? redisBudget(o.redis, o.prefix ?? 'ar') : databaseBudget(o.db);
    this.#now = o.now;
    this.#operatorToken = o.operatorToken;
  }

  /** Issues a key. `key` is returned here only; it is not recoverable later. */
  async create(name: string, dailyScans: number): Promise<{ keyId: string; key: string }> {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > NAME_MAX) throw errors.badRequest(`\`name\` must be 1 to ${NAME_MAX} characters.`);
    if (!Number.isInteger(dailyScans) || dailyScans < 1 || dailyScans > DAILY_SCANS_MAX) {
      throw errors.badRequest(`\`dailyScans\` must be a whole number from 1 to ${DAILY_SCANS_MAX}.`);
    }
    const { keyId, key, hash } = newKey();
    await insertApiKey(this.#db, { id: keyId, name: trimmed, daily_scans: dailyScans, key_hash: hash, created_at: this.#now().toISOString(), revoked_at: null });
    return { keyId, key };
  }

  async list(): Promise<KeySummary[]> {
    return (await listApiKeys(this.#db)).map((r) => ({ ...record(r), createdAt: r.created_at, revokedAt: r.revoked_at }));
  }

  /** Revokes a key at once on every instance (each request reads the key's row). False when unknown or already revoked. */
  revoke(keyId: string): Promise<boolean> {
    return revokeApiKey(this.#db, keyId, this.#now().toISOString());
  }

  /** The key behind an Authorization header; a 401 (WWW-Authenticate: Bearer) when it is missing, unknown or revoked. */
  async authenticate(authorization: string | undefined): Promise<KeyRecord> {
    const token = bearerOf(authorization);
    if (token === undefined) throw errors.unauthorized('An API key is required.', HINT);
    // Found by the SHA-256 of what was presented (a unique index), never compared in code: an
    // index walk over digests tells a caller nothing about any key, as the digest of a guess
    // cannot be steered toward a stored one.
    const row = looksLikeKey(token) ? await findApiKeyByHash(this.#db, hashKey(token)) : undefined;
    if (!row) throw invalid('The API key is not valid.');
    if (row.revoked_at !== null) throw invalid('This API key has been revoked.');
    return record(row);
  }

  /** A partner key or the operator token; the same 401s as authenticate() otherwise. */
  async identify(authorization: string | undefined): Promise<Caller> {
    const token = bearerOf(authorization);
    if (token !== undefined && !looksLikeKey(token) && secretsEqual(token, this.#operatorToken)) return { kind: 'operator' };
    return { kind: 'partner', key: await this.authenticate(authorization) };
  }

  /** Whether the key exists and is not revoked (capability links of a batch die with their key). */
  async isLive(keyId: string): Promise<boolean> {
    const row = await findApiKey(this.#db, keyId);
    return row !== undefined && row.revoked_at === null;
  }

  /** Today's budget without spending any. */
  async peek(keyId: string): Promise<Budget> {
    const key = await this.#live(keyId);
    const { day, resetS } = dayOf(this.#now());
    const used = await this.#guard(() => this.#store.used(keyId, day));
    return { limit: key.dailyScans, remaining: Math.max(0, key.dailyScans - used), resetS };
  }

  /**
   * Spends n scans of today's budget, all or none. Over budget: a 429 saying how many remain
   * and when they refill (Retry-After). The store unreachable: a 503, nothing spent.
   */
  async consume(keyId: string, n: number): Promise<Budget> {
    const key = await this.#live(keyId);
    const { day, resetS } = dayOf(this.#now());
    const out = await this.#guard(() => this.#store.spend(keyId, day, n, key.dailyScans, resetS + 3600));
    const remaining = Math.max(0, key.dailyScans - out.used);
    if (out.ok) return { limit: key.dailyScans, remaining, resetS };
    const budget = { limit: key.dailyScans, remaining, resetS };
    const error = errors.tooMany(resetS, `This key has ${remaining} of its ${key.dailyScans} daily scans left; ${n} were asked for.`,
      `The budget refills at 00:00 UTC, in ${resetS} seconds. Send at most ${remaining} domains until then.`);
    throw new AppError(error.code, error.body, { headers: { ...error.headers, ...rateLimitHeaders(budget) } });
  }

  /** Gives back n scans spent on `at`'s UTC day (work refused after it was paid for). */
  async refund(keyId: string, n: number, at: Date = this.#now()): Promise<void> {
    if (n <= 0) return;
    await this.#guard(() => this.#store.refund(keyId, dayOf(at).day, n));
  }

  async #live(keyId: string): Promise<KeyRecord> {
    const row = await findApiKey(this.#db, keyId);
    if (!row) throw invalid('The API key is not valid.');
    if (row.revoked_at !== null) throw invalid('This API key has been revoked.');
    return record(row);
  }

  async #guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw errors.unavailable('The scan budget could not be checked right now; nothing was spent.', 'Try again in a minute.', err);
    }
  }
}

function invalid(error: string): AppError {
  const e = errors.unauthorized(error, HINT);
  return new AppError(e.code, e.body, { headers: { 'WWW-Authenticate': 'Bearer realm="agent-readiness", error="invalid_token"' } });
}
