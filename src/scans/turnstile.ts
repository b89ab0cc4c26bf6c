// The human-verification gate (Cloudflare Turnstile siteverify protocol). Off unless
// TURNSTILE_SECRET is set. It fails closed: an unreachable verifier means "not verified",
// because an open gate during an outage would defeat its purpose.
import { AppError } from '../errors.ts';

export interface TurnstileGate {
  enabled: boolean;
  /** Throws a 403 AppError unless the token verifies. */
  check(token: unknown, clientIp: string): Promise<void>;
}

function refused(error: string): AppError {
  return new AppError('VERIFICATION_FAILED', { error, hint: 'Complete the human-verification step and send its token as `turnstileToken`.' });
}

export function createTurnstileGate(secret: string | undefined, verifyUrl: string, timeoutMs = 5000): TurnstileGate {
  return {
    enabled: secret !== undefined,
    async check(token, clientIp) {
      if (secret === undefined) return;
      if (typeof token !== 'string' || token.length === 0 || token.length > 2048) throw refused('Human verification is required for this scan.');
      const form = new URLSearchParams({ secret, response: token, remoteip: clientIp });
      let ok = false;
      try {
        const res = await fetch(verifyUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(timeoutMs) });
        const data = (await res.json()) as { success?: unknown };
        ok = res.ok && data.success === true;
      } catch (err) {
        throw new AppError('VERIFICATION_FAILED', { error: 'Human verification could not be checked right now.', hint: 'Try again in a minute.' }, { cause: err });
      }
      if (!ok) throw refused('Human verification failed.');
    },
  };
}
