// The world's strict Web Bot Auth verifier, as an edge that honours signed agents would run it
// (README.md in this folder): it reads a request's Signature, Signature-Input and Signature-Agent,
// resolves the member URL through the world (directory.ts), verifies per verify.ts, and remembers
// nonces for as long as their signatures live. It shares no code with the signer in src/signing.
import type { IncomingMessage } from 'node:http';
import type { KeyObject } from 'node:crypto';
import type { Egress } from '../../../src/net/egress.ts';
import { Refusal, unverified, type MessageParts } from './base.ts';
import { MAX_DIRECTORY_BYTES, resolveDirectory, type DirectoryFetch, type ResolvedDirectory } from './directory.ts';
import { verifyRequest, type Verdict } from './verify.ts';

export type { Verdict } from './verify.ts';

export interface StrictVerifier {
  verify(req: IncomingMessage): Promise<Verdict>;
  /** Every verdict so far, in order (tests read why a request was refused). */
  readonly log: ReadonlyArray<Verdict & { authority: string }>;
}

/** Directory fetches through an egress of the world: guarded, over TLS, no redirect followed (§5.5). */
export function egressFetch(egress: Egress): DirectoryFetch {
  return async (url) => {
    const r = await egress.fetch({ url, headers: { accept: 'application/http-message-signatures-directory+json' }, timeoutMs: 5_000, maxBodyBytes: MAX_DIRECTORY_BYTES + 1, maxRedirects: 0 });
    return r.ok ? { status: r.status, headers: r.headers, body: r.body } : { error: `${r.errorCode}: ${r.message}` };
  };
}

export function createStrictVerifier(fetchOnce: DirectoryFetch, nowMs: () => number = Date.now): StrictVerifier {
  const nonces = new Map<string, number>();
  const cache = new Map<string, { at: number; dir: Promise<ResolvedDirectory> }>();
  const log: Array<Verdict & { authority: string }> = [];

  // Appendix C.4: cached for the directory's max-age (coalescing concurrent fetches); a keyid the
  // cached copy lacks is looked up once more, fresh (§5.4: the verifier MAY fetch when it is unknown).
  const directory = (url: string, fresh: boolean): Promise<ResolvedDirectory> => {
    const hit = cache.get(url);
    if (hit && !fresh) return hit.dir;
    const dir = resolveDirectory(url, fetchOnce, nowMs());
    const entry = { at: nowMs(), dir };
    cache.set(url, entry);
    // A failed resolution is not kept (Appendix C.5: a failure is not evidence), nor one past its max-age.
    dir.then((d) => setTimeout(() => cache.get(url) === entry && cache.delete(url), d.maxAgeS * 1000).unref(), () => cache.get(url) === entry && cache.delete(url));
    return dir;
  };
  const keysAt = async (url: string, keyid: string): Promise<KeyObject> => {
    let key = (await directory(url, false)).keys.get(keyid);
    key ??= (await directory(url, true)).keys.get(keyid);
    if (!key) throw unverified('unknown-keyid', `${url} publishes no proven key ${keyid} (§5.4: lookup by URL and key)`);
    return key;
  };
  const recordNonce = (nonce: string, untilMs: number): boolean => {
    const now = nowMs();
    for (const [n, until] of nonces) if (until < now) nonces.delete(n);
    if (nonces.has(nonce)) return false;
    nonces.set(nonce, untilMs);
    return true;
  };

  return {
    log,
    async verify(req) {
      const url = new URL(req.url ?? '/', 'https://x');
      const fields: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) fields[name] = Array.isArray(value) ? value.join(', ') : value;
      const authority = String(req.headers.host ?? '');
      const message: MessageParts = { method: req.method ?? 'GET', authority, path: url.pathname, query: url.search.slice(1), fields };
      const verdict = await verifyRequest(message, { nowMs, keysAt, recordNonce }).catch((err: unknown) => (
        err instanceof Refusal ? { outcome: err.outcome, reason: err.reason, detail: err.message } : { outcome: 'invalid' as const, reason: 'verifier-error', detail: String(err) }
      ));
      log.push({ ...verdict, authority });
      return verdict;
    },
  };
}
