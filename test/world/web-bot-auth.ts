// The world's Web Bot Auth verifier, as an edge that honours signed agents would run it: it
// reads Signature-Agent, fetches that key directory (the one the service publishes), and
// verifies the RFC 9421 signature with web-bot-auth's verifier for the key named by keyid.
import type { IncomingMessage } from 'node:http';
import { verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';

const directories = new Map<string, Promise<{ keys: Array<JsonWebKey & { kid?: string }> }>>();

export async function verifiedWebBotAuth(req: IncomingMessage, authority: string): Promise<boolean> {
  const agent = String(req.headers['signature-agent'] ?? '');
  const url = /^sig1="([^"]+)"$/.exec(agent)?.[1];
  if (!url || !req.headers['signature'] || !req.headers['signature-input']) return false;
  let dir = directories.get(url);
  if (!dir) {
    dir = fetch(url).then((r) => r.json() as Promise<{ keys: Array<JsonWebKey & { kid?: string }> }>);
    directories.set(url, dir);
  }
  const { keys } = await dir;
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const request = new Request(`https://${authority}${req.url ?? '/'}`, { headers });
  for (const key of keys) {
    try {
      const { kid: _kid, ...jwk } = key;
      await verify(request, await verifierFromJWK(jwk));
      return true;
    } catch {
      // not this key, or not valid
    }
  }
  return false;
}
