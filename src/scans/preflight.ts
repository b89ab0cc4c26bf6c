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

export function guardName(domain: string): void {
  const verdict = checkHostName(domain);
  if (!verdict.ok) {
    throw new AppError('INVALID_DOMAIN', {
      error: `${domain} cannot be scanned: ${verdict.reason}.`,
      hint: 'Send a public website domain such as example.com.',
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
