// A watch's webhook URL, checked at creation by the scanner's own guard (src/net/guard.ts)
// with its name resolved as the scanner resolves names (SCAN_RESOLVE answers, then DNS):
// https only, no credentials in it, a host name (not an address literal) that is not
// reserved or internal, and every address it resolves to globally routable. Deliveries
// check it again each time (the name may point elsewhere later). A refusal never names the
// address the host resolved to.
import { errors } from '../errors.ts';
import { checkHostName, checkResolved } from '../net/guard.ts';
import type { Resolver } from '../scans/types.ts';

const HINT = 'Give an https URL whose host name resolves to public addresses only (no IP literal, no localhost or internal name, no user:password@).';

function refuse(why: string): never {
  throw errors.badRequest(`The webhook URL must be https on a public address: ${why}.`, HINT);
}

/** The URL as it will be called; a 400 (Error shape) otherwise. */
export async function checkWebhookUrl(raw: string, resolve: Resolver): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse('it is not a URL');
  }
  if (url.protocol !== 'https:') refuse(`its scheme is ${url.protocol.replace(/:$/, '')}`);
  if (url.username || url.password) refuse('it carries a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const named = checkHostName(host);
  if (!named.ok) refuse(`${host}: ${named.reason}`);
  const answer = await resolve(host);
  if (!answer.ok) refuse(`${host} does not resolve (${answer.message})`);
  // Never which address: a name of the caller's pointing into our network (a CNAME to an
  // internal name) would otherwise read our internal DNS back to them. The scan preflight says the same.
  if (!checkResolved(host, answer.addresses).ok) refuse(`${host} resolves to a non-public address`);
  url.hash = '';
  return url.toString();
}
