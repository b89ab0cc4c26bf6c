// Decisions taken before any probe leaves (design choices the spec leaves open; they are
// documented in openapi.yaml's POST /scan description and /methodology.md):
//
// - NXDOMAIN (the name has no addresses): 400 with a spelling hint. Nothing could be
//   measured, and archiving an "unknown" report for a typo would only mail the lead noise.
// - Every answer is a non-global address (private, loopback, CGNAT, ...): 400, the same rule
//   as an IP literal or localhost: it is not a public website. A mix of global and non-global
//   answers is also refused, because the egress could be steered to the internal one.
// - A DNS failure other than NXDOMAIN (SERVFAIL, timeout) does not stop the scan: that is a
//   measurement limit, and the engine reports it as `unknown`, never against the site.
import { AppError } from '../errors.ts';
import { checkHostName, isGlobalAddress } from '../net/guard.ts';
import type { Resolver } from './types.ts';

const PUBLIC_HINT = 'Send a public website domain such as example.com.';
/** localhost, *.localhost, 127.x, 0.0.0.0 and [::1], pasted bare or as a URL, with or without a port. */
const LOOPBACK = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:localhost|[^/:?#\s]*\.localhost|127(?:\.\d{1,3}){0,3}|0\.0\.0\.0|\[::1\])\.?(?:[:/?#]|$)/i;

/**
 * What to do instead of a refused domain. Someone who types their own machine's address wants
 * to check a server they are building: the CLI's local mode does that, on their machine.
 */
export function domainHint(raw: unknown): string {
  if (typeof raw !== 'string' || !LOOPBACK.test(raw.trim())) return PUBLIC_HINT;
  return 'This service scans public websites from two cloud networks. To check a server on your own machine, run `npx agent-readiness scan localhost:<port>`: the CLI runs the same checks there and uploads nothing.';
}

export function guardName(domain: string, hint = PUBLIC_HINT): void {
  const verdict = checkHostName(domain);
  if (!verdict.ok) {
    throw new AppError('INVALID_DOMAIN', {
      error: `${domain} cannot be scanned: ${verdict.reason}.`,
      hint,
      domain,
    });
  }
}

export async function preflightDns(domain: string, resolve: Resolver): Promise<void> {
  const answer = await resolve(domain);
  if (!answer.ok) {
    if (answer.errorCode === 'DNS_NXDOMAIN') {
      throw new AppError('INVALID_DOMAIN', { error: `${domain} does not resolve (no DNS answer).`, hint: 'Check the spelling of the domain.', domain });
    }
    return;
  }
  const bad = answer.addresses.filter((a) => !isGlobalAddress(a));
  if (bad.length > 0) {
    const only = bad.length === answer.addresses.length;
    throw new AppError('INVALID_DOMAIN', {
      error: only
        ? `${domain} resolves only to non-public addresses, so it is not a public website.`
        : `${domain} resolves to a non-public address besides public ones, so it cannot be scanned safely.`,
      hint: 'Only domains whose every address is publicly routable can be scanned.',
      domain,
    });
  }
}
