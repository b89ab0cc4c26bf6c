/**
 * `agent-readiness changes [--since <cursor>]` on the command line -> typed options. Loaded up
 * front with the other parsers (no network code here); usage errors exit 1, as batch's do.
 */
import { parseArgs } from 'node:util';
import { PACKAGED_API_DEFAULT } from './args.ts';
import { KEY_ENV } from './batch-args.ts';

export const CHANGES_FORMATS = ['text', 'jsonl'] as const;
export type ChangesFormat = (typeof CHANGES_FORMATS)[number];

export interface ChangesOptions {
  api: string;
  /** The partner API key (a secret: never printed). */
  key: string;
  since?: string;
  format: ChangesFormat;
}

export type ChangesParsed =
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string; exit: 1 }
  | { kind: 'changes'; options: ChangesOptions };

const usage = (message: string): ChangesParsed => ({ kind: 'usage-error', message, exit: 1 });

/** Whether the command line's first positional is "changes". */
export function isChangesCommand(argv: readonly string[]): boolean {
  const { positionals } = parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: { api: { type: 'string' }, key: { type: 'string' }, since: { type: 'string' }, format: { type: 'string' } } });
  return positionals[0] === 'changes';
}

export function parseChanges(argv: readonly string[], env: Record<string, string | undefined>): ChangesParsed {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv], allowPositionals: true, strict: true,
      options: { api: { type: 'string' }, key: { type: 'string' }, since: { type: 'string' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    return usage((err as Error).message.replace(/\. To specify a positional.*$/s, '').concat(' (changes takes --since, --key, --api and --format)'));
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { kind: 'help' };
  if (positionals.length > 1) return usage(`unexpected argument "${positionals[1]}"; changes takes options only`);
  const key = v.key ?? env[KEY_ENV];
  if (!key) return usage(`changes needs a partner API key: pass --key <key> or set ${KEY_ENV}`);
  if (!/^[\x21-\x7e]+$/.test(key)) return usage('the API key must be printable characters without spaces');
  const api = v.api ?? (env.AGENT_READINESS_API || PACKAGED_API_DEFAULT);
  if (!api) return usage('changes needs the API address: pass --api <URL> or set AGENT_READINESS_API');
  if (!URL.canParse(api) || !['http:', 'https:'].includes(new URL(api).protocol)) return usage(`the API address "${api}" is not an http(s) URL`);
  if (v.since !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(v.since)) return usage('--since takes a cursor as an earlier run printed it ("next cursor: …")');
  if (v.format !== undefined && !(CHANGES_FORMATS as readonly string[]).includes(v.format)) return usage(`--format for changes must be one of ${CHANGES_FORMATS.join(', ')}, not "${v.format}"`);
  return { kind: 'changes', options: { api, key, format: (v.format as ChangesFormat | undefined) ?? 'text', ...(v.since !== undefined ? { since: v.since } : {}) } };
}
