/**
 * The owner's intent as a scan request carries it (ScanRequest.intent): the roles and wishes, the
 * part of the coalescing key it adds, and the CLI's `--intent training=block,search=allow`. Kept
 * free of imports so the CLI's argument parser can load it before anything heavy.
 */
import type { components } from '../../generated/api-types.ts';

export type ScanIntent = components['schemas']['ScanIntent'];
export type IntentWish = components['schemas']['IntentWish'];
type Role = keyof ScanIntent;

/** The roles in the order the report lists them. */
export const INTENT_ROLES: readonly Role[] = ['training', 'search', 'user-fetch', 'archive'];
export const INTENT_WISHES: readonly IntentWish[] = ['allow', 'block', 'charge'];

/** The coalescing key's part for an intent: roles in a fixed order, so equal intents give equal keys. */
export function intentKey(intent: ScanIntent | undefined): string {
  if (!intent) return '';
  return INTENT_ROLES.filter((r) => intent[r]).map((r) => `${r}=${intent[r]}`).join(',');
}

/** Parses `training=block,search=allow` (the CLI's --intent); a message for the first bad part. */
export function parseIntent(text: string): { ok: true; intent: ScanIntent } | { ok: false; message: string } {
  const intent: ScanIntent = {};
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) return { ok: false, message: `--intent takes role=wish pairs such as training=block,search=allow` };
  for (const part of parts) {
    const m = /^([a-z-]+)=([a-z]+)$/.exec(part);
    const role = m?.[1] as Role | undefined;
    const wish = m?.[2] as IntentWish | undefined;
    if (!m || !INTENT_ROLES.includes(role!)) return { ok: false, message: `--intent: "${part}" must be <role>=<wish> with a role among ${INTENT_ROLES.join(', ')}` };
    if (!INTENT_WISHES.includes(wish!)) return { ok: false, message: `--intent: the wish for ${role} must be one of ${INTENT_WISHES.join(', ')}, not "${m[2]}"` };
    if (intent[role!]) return { ok: false, message: `--intent names ${role} twice` };
    intent[role!] = wish!;
  }
  return { ok: true, intent };
}
