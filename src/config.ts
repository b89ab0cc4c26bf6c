// The operator's interface: every setting of design/operations.md, parsed once at start
// from the environment and passed down. Nothing reads process.env after this.
import os from 'node:os';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseScanResolve, type ResolveOverrides } from './net/resolve.ts';

const Rate = Type.String({ pattern: '^[1-9][0-9]*/[1-9][0-9]*$', description: 'burst/seconds' });
const Url = (protocols: string) => Type.String({ pattern: `^(${protocols})://[^\\s]+$` });
const Int = (min: number, max: number) => Type.String({ pattern: '^[0-9]+$', 'x-min': min, 'x-max': max });
const Bool = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

/** Raw environment: each key is the variable name, validated as the string it arrives as. */
const EnvSchema = Type.Object({
  PORT: Type.Optional(Int(0, 65535)),
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  BASE_URL: Type.Optional(Url('https?')),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^(sqlite:.+|postgres(ql)?://.+)$' })),
  REDIS_URL: Type.Optional(Url('rediss?')),
  REDIS_KEY_PREFIX: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$' })),
  NETWORK_A_PROXY: Type.Optional(Url('https?')),
  NETWORK_B_PROXY: Type.Optional(Url('https?')),
  SCAN_RESOLVE: Type.Optional(Type.String()),
  SCAN_DOH_URL: Type.Optional(Type.String({ pattern: '^https://[^\\s?#]+$' })),
  SMTP_URL: Type.Optional(Url('smtps?')),
  MAIL_DIR: Type.Optional(Type.String({ minLength: 1 })),
  MAIL_FROM: Type.Optional(Type.String({ minLength: 3 })),
  PROBE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 20 })),
  SECURITY_CONTACT: Type.Optional(Type.String({ pattern: '^(mailto:|https://)\\S+$' })),
  MAIL_PER_RECIPIENT_PER_DAY: Type.Optional(Int(0, 1000)),
  EXCLUDED_DOMAINS: Type.Optional(Type.String()),
  TURNSTILE_SECRET: Type.Optional(Type.String()),
  TURNSTILE_SITE_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' })),
  TURNSTILE_VERIFY_URL: Type.Optional(Url('https?')),
  RATE_LIMIT_PER_DOMAIN: Type.Optional(Rate),
  RATE_LIMIT_PER_IP: Type.Optional(Rate),
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  COALESCE_WINDOW_S: Type.Optional(Int(0, 3600)),
  SCAN_DEADLINE_MS: Type.Optional(Int(1000, 600000)),
  PROBE_TIMEOUT_MS: Type.Optional(Int(100, 120000)),
  SCANNER_ZONE: Type.Optional(Type.String()),
  OPERATOR_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  JOB_LEASE_MS: Type.Optional(Int(2000, 600000)),
  WORKER_CONCURRENCY: Type.Optional(Int(1, 1000)),
  FLEET_PER_ADDRESS_CONCURRENCY: Type.Optional(Int(1, 100)),
  WEBHOOK_SECRET_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{43,}$' })),
  WEBHOOK_BACKOFF_MS: Type.Optional(Int(10, 3600000)),
  WEBHOOK_TIMEOUT_MS: Type.Optional(Int(100, 60000)),
  WATCH_INTERVAL_S: Type.Optional(Int(1, 604800)),
  WATCH_CONFIRM_TTL_S: Type.Optional(Int(1, 31536000)),
  LOG_LEVEL: Type.Optional(Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)))),
  VALIDATE_RESPONSES: Type.Optional(Bool),
  NODE_ENV: Type.Optional(Type.String()),
});
type Env = Static<typeof EnvSchema>;

export interface RateSetting { points: number; durationS: number }

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  networkAProxy: string | undefined;
  networkBProxy: string | undefined;
  /** SCAN_RESOLVE, parsed: static DNS answers consulted before DNS (still guarded). */
  scanResolve: ResolveOverrides;
  /** SCAN_DOH_URL: the DNS over HTTPS resolver (RFC 8484) of the DNS discovery lookups, reached through networkA. */
  scanDohUrl: string;
  smtpUrl: string | undefined;
  mailDir: string;
  mailFrom: string;
  /** The Ed25519 private JWK the service signs its Web Bot Auth probes with; unset: generated once and stored. */
  probeSigningKey: string | undefined;
  /** security.txt Contact: SECURITY_CONTACT, else the MAIL_FROM address as mailto:. */
  securityContact: string;
  /** Report mails one address may receive in any 24 hours; 0 sends none. */
  mailPerRecipientPerDay: number;
  excludedDomains: string[];
  turnstileSecret: string | undefined;
  /** The widget's public site key for the web form; shown only when the gate (TURNSTILE_SECRET) is on. */
  turnstileSiteKey: string | undefined;
  turnstileVerifyUrl: string;
  rateLimitPerDomain: RateSetting;
  rateLimitPerIp: RateSetting;
  trustProxy: boolean | number | string;
  coalesceWindowS: number;
  scanDeadlineMs: number;
  probeTimeoutMs: number;
  scannerZone: string | undefined;
  operatorToken: string | undefined;
  /** How long a running job's claim lasts unrenewed (BullMQ's lockDuration): a dead instance's jobs are retried after about this. */
  jobLeaseMs: number;
  /** Batch items this instance scans at once (they also yield to people's scans in admission). */
  workerConcurrency: number;
  /** Batch scans at once against targets resolving to one IP address, across all instances. */
  fleetPerAddressConcurrency: number;
  /** The master key webhook secrets are derived from (src/webhooks/secrets.ts); unset: generated once and stored. */
  webhookSecretKey: string | undefined;
  /** Wait before a failed webhook delivery's first retry; it doubles each time (src/webhooks/deliveries.ts). */
  webhookBackoffMs: number;
  /** A webhook receiver's whole answer must arrive within this. */
  webhookTimeoutMs: number;
  /** WATCH_INTERVAL_S: every watch's period is at most this many seconds (operators, tests); unset: a day or a week. */
  watchIntervalS: number | undefined;
  /** WATCH_CONFIRM_TTL_S: a watch still unconfirmed this long after its creation is deleted, with its links. */
  watchConfirmTtlS: number;
  logLevel: string;
  /** Check every response against openapi.yaml; on outside production. */
  validateResponses: boolean;
}

/** Cloudflare's public resolver (README): RFC 8484 GET and POST at this path. */
export const DEFAULT_DOH_URL = 'https://cloudflare-dns.com/dns-query';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function rate(value: string): RateSetting {
  const [points, durationS] = value.split('/').map(Number) as [number, number];
  return { points, durationS };
}

function bool(value: string | undefined, fallback: boolean): boolean {
  return value === undefined ? fallback : value === 'true' || value === '1';
}

function trustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^[0-9]+$/.test(value)) return Number(value);
  return value; // a list of subnets, as Express accepts
}

function checkRanges(schema: TSchema, env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const [key, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const raw = env[key];
    if (raw === undefined || prop['x-min'] === undefined) continue;
    const n = Number(raw);
    if (n < prop['x-min'] || n > prop['x-max']) problems.push(`${key} must be between ${prop['x-min']} and ${prop['x-max']} (got ${raw})`);
  }
  return problems;
}

/**
 * Parses the settings once. Unknown variables are ignored (the environment is shared with
 * everything else); a known variable with a bad value throws a ConfigError naming it.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') env[key] = value.trim();
  }
  const problems = [...Value.Errors(EnvSchema, env)].map((e) => `${e.path.slice(1)}: ${e.message} (got ${JSON.stringify(e.value)})`);
  problems.push(...checkRanges(EnvSchema, env));
  let scanResolve: ResolveOverrides | undefined;
  try {
    scanResolve = parseScanResolve(env.SCAN_RESOLVE);
  } catch (err) {
    problems.push(`SCAN_RESOLVE: ${(err as Error).message}`);
  }
  if (env.PROBE_SIGNING_KEY !== undefined) {
    try {
      const jwk = JSON.parse(env.PROBE_SIGNING_KEY) as Record<string, unknown>;
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string' || typeof jwk.d !== 'string') throw new Error('shape');
    } catch {
      problems.push('PROBE_SIGNING_KEY: must be an Ed25519 private key as a JWK (JSON with kty "OKP", crv "Ed25519", x and d)');
    }
  }
  if (problems.length > 0 || !scanResolve) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  const e = env as Env;
  const port = e.PORT === undefined ? 8080 : Number(e.PORT);
  const production = e.NODE_ENV === 'production';
  return {
    port,
    host: e.HOST ?? '0.0.0.0',
    baseUrl: (e.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL ?? 'sqlite:./data/agent-readiness.sqlite',
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX ?? '',
    networkAProxy: e.NETWORK_A_PROXY,
    networkBProxy: e.NETWORK_B_PROXY,
    scanResolve,
    scanDohUrl: e.SCAN_DOH_URL ?? DEFAULT_DOH_URL,
    smtpUrl: e.SMTP_URL,
    mailDir: e.MAIL_DIR ?? './data/mail',
    mailFrom: e.MAIL_FROM ?? 'agent-readiness <reports@agent-readiness.invalid>',
    probeSigningKey: e.PROBE_SIGNING_KEY,
    securityContact: e.SECURITY_CONTACT ?? `mailto:${/<([^>]+)>/.exec(e.MAIL_FROM ?? '')?.[1] ?? (e.MAIL_FROM && !e.MAIL_FROM.includes(' ') ? e.MAIL_FROM : 'reports@agent-readiness.invalid')}`,
    mailPerRecipientPerDay: e.MAIL_PER_RECIPIENT_PER_DAY === undefined ? 3 : Number(e.MAIL_PER_RECIPIENT_PER_DAY),
    excludedDomains: (e.EXCLUDED_DOMAINS ?? '').split(',').map((d) => d.trim().toLowerCase()).filter(Boolean),
    turnstileSecret: e.TURNSTILE_SECRET,
    turnstileSiteKey: e.TURNSTILE_SECRET ? e.TURNSTILE_SITE_KEY : undefined,
    turnstileVerifyUrl: e.TURNSTILE_VERIFY_URL ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    rateLimitPerDomain: rate(e.RATE_LIMIT_PER_DOMAIN ?? '3/60'),
    rateLimitPerIp: rate(e.RATE_LIMIT_PER_IP ?? '5/1800'),
    trustProxy: trustProxy(e.TRUST_PROXY),
    coalesceWindowS: e.COALESCE_WINDOW_S === undefined ? 45 : Number(e.COALESCE_WINDOW_S),
    scanDeadlineMs: e.SCAN_DEADLINE_MS === undefined ? 25000 : Number(e.SCAN_DEADLINE_MS),
    probeTimeoutMs: e.PROBE_TIMEOUT_MS === undefined ? 8000 : Number(e.PROBE_TIMEOUT_MS),
    scannerZone: e.SCANNER_ZONE?.toLowerCase().replace(/^\.+|\.+$/g, ''),
    operatorToken: e.OPERATOR_TOKEN,
    jobLeaseMs: e.JOB_LEASE_MS === undefined ? 30000 : Number(e.JOB_LEASE_MS),
    // A scan mostly waits on the site: eight per CPU keeps a core busy without holding the
    // memory of scans that would only queue for the event loop (admission lets them in).
    workerConcurrency: e.WORKER_CONCURRENCY === undefined ? 8 * os.availableParallelism() : Number(e.WORKER_CONCURRENCY),
    fleetPerAddressConcurrency: e.FLEET_PER_ADDRESS_CONCURRENCY === undefined ? 2 : Number(e.FLEET_PER_ADDRESS_CONCURRENCY),
    webhookSecretKey: e.WEBHOOK_SECRET_KEY,
    webhookBackoffMs: e.WEBHOOK_BACKOFF_MS === undefined ? 5000 : Number(e.WEBHOOK_BACKOFF_MS),
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS === undefined ? 10000 : Number(e.WEBHOOK_TIMEOUT_MS),
    watchIntervalS: e.WATCH_INTERVAL_S === undefined ? undefined : Number(e.WATCH_INTERVAL_S),
    watchConfirmTtlS: e.WATCH_CONFIRM_TTL_S === undefined ? 604800 : Number(e.WATCH_CONFIRM_TTL_S),
    logLevel: e.LOG_LEVEL ?? 'info',
    validateResponses: bool(e.VALIDATE_RESPONSES, !production),
  };
}

/** The documented variables, for the README table and the config test. */
export const configVariables = Object.keys(EnvSchema.properties);
