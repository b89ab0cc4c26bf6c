// Token sets of the current roster by intent, for writing edge rules and expectations.
import { probeableAgents } from '../../../src/scanner/roster.ts';

const by = (intents: string[]) => probeableAgents().filter((a) => intents.includes(a.intent) && !a.contextOnly).map((a) => a.token);

export const USER = by(['user-fetch']);
export const SEARCH = by(['search']);
export const TRAIN = by(['training']);
export const ARCHIVE = by(['archive']);
/** Every probeable agent except the context-only Googlebot. */
export const SCORED = by(['user-fetch', 'search', 'training', 'archive']);

/** verdict map helper: every token of `tokens` -> `verdict`. */
export function all<T>(tokens: readonly string[], value: T): Record<string, T> {
  return Object.fromEntries(tokens.map((t) => [t, value]));
}
