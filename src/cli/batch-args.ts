/**
 * `agent-readiness batch <file>` on the command line -> typed options. Its usage errors exit 1
 * (issue 30 fixes batch's codes as 0 scanned, 2 could not test, 1 usage), unlike scan and diff,
 * whose usage errors are "could not test" (2) because 1 is their failed gate.
 */
import { parseArgs } from 'node:util';
import { PACKAGED_API_DEFAULT, PROFILES, type ProfileName } from './args.ts';

export const BATCH_FORMATS = ['text', 'csv', 'jsonl'] as const;
export type BatchFormat = (typeof BATCH_FORMATS)[number];
export const KEY_ENV = 'AGENT_READINESS_KEY';
export const EXIT_BATCH_USAGE = 1;

export interface BatchOptions {
  /** A file of domains (`.csv`: a `domain` column or the first; else one per line), or `-` for stdin. */
  file: string;
  api: string;
  /** The partner API key (a secret: never printed). */
  key: string;
  format: BatchFormat;
  out?: string;
  wait: boolean;
  profile?: ProfileName;
  label?: string;
}

export type BatchParsed =
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string; exit: typeof EXIT_BATCH_USAGE }
  | { kind: 'batch'; options: BatchOptions };

const usage = (message: string): BatchParsed => ({ kind: 'usage-error', message, exit: EXIT_BATCH_USAGE });

/** The format an --out file's extension names, so `--out results.csv` needs no --format. */
function formatFromOut(out: string | undefined): BatchFormat | undefined {
  if (!out) return undefined;
  if (/\.csv$/i.test(out)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(out)) return 'jsonl';
  return undefined;
}

const STRING_OPTIONS = ['api', 'key', 'format', 'out', 'profile', 'label'];

/** Whether the command line is a batch (its first positional, read with batch's options, is "batch"). */
export function isBatchCommand(argv: readonly string[]): boolean {
  const { positionals } = parseArgs({
    args: [...argv], allowPositionals: true, strict: false,
    options: Object.fromEntries(STRING_OPTIONS.map((o) => [o, { type: 'string' as const }])),
  });
  return positionals[0] === 'batch';
}

export function parseBatch(argv: readonly string[], env: Record<string, string | undefined>): BatchParsed {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      allowNegative: true,
      strict: true,
      options: {
        api: { type: 'string' }, key: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' },
        wait: { type: 'boolean' }, profile: { type: 'string' }, label: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return usage((err as Error).message.replace(/\. To specify a positional.*$/s, '').concat(' (batch takes --api, --key, --format, --out, --wait/--no-wait, --profile and --label)'));
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { kind: 'help' };
  const [command, file, ...rest] = positionals;
  if (command !== 'batch') return usage('batch must come first: agent-readiness batch <file> [options]');
  if (!file) return usage('batch needs a file of domains, e.g. agent-readiness batch domains.txt --key <key> (one domain per line, or a CSV with a domain column; - reads stdin)');
  if (rest.length) return usage(`unexpected argument "${rest[0]}"; batch takes one file`);
  const key = v.key ?? env[KEY_ENV];
  if (!key) return usage(`batch needs a partner API key: pass --key <key> or set ${KEY_ENV}`);
  if (!/^[\x21-\x7e]+$/.test(key)) return usage('the API key must be printable characters without spaces');
  const api = v.api ?? (env.AGENT_READINESS_API || PACKAGED_API_DEFAULT);
  if (!api) return usage('batch needs the API address: pass --api <URL> or set AGENT_READINESS_API');
  try {
    if (!['http:', 'https:'].includes(new URL(api).protocol)) throw new Error('scheme');
  } catch {
    return usage(`the API address "${api}" is not an http(s) URL`);
  }
  if (v.format !== undefined && !(BATCH_FORMATS as readonly string[]).includes(v.format)) return usage(`--format for batch must be one of ${BATCH_FORMATS.join(', ')}, not "${v.format}"`);
  if (v.profile !== undefined && !(PROFILES as readonly string[]).includes(v.profile)) return usage(`--profile must be one of ${PROFILES.join(', ')}, not "${v.profile}"`);
  if (v.label !== undefined && v.label.length > 200) return usage('--label takes at most 200 characters');
  const wait = v.wait ?? true;
  if (!wait && (v.out !== undefined || v.format !== undefined)) return usage('--no-wait writes no results (it prints the batch and its links); drop --out and --format, or wait');
  const format = (v.format as BatchFormat | undefined) ?? formatFromOut(v.out) ?? 'text';
  return {
    kind: 'batch',
    options: {
      file, api, key, format, wait,
      ...(v.out !== undefined ? { out: v.out } : {}),
      ...(v.profile !== undefined ? { profile: v.profile as ProfileName } : {}),
      ...(v.label !== undefined ? { label: v.label } : {}),
    },
  };
}
