// Signing one probe as agent-readiness itself with Web Bot Auth (draft-meunier-web-bot-auth-
// architecture; RFC 9421 HTTP Message Signatures), through the web-bot-auth package: the
// Signature-Agent header names our key directory, Signature-Input covers @authority and
// signature-agent with tag "web-bot-auth" and the key's JWK thumbprint as keyid.
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { KEY_DIRECTORY_PATH, type ProbeKey } from './keys.ts';

/** A signature is good for five minutes: long enough for a probe, short enough not to be replayed later. */
const VALIDITY_MS = 5 * 60_000;

export interface WebBotAuthSigner {
  /** The User-Agent both the signed and the unsigned probe carry. */
  userAgent: string;
  /** Headers that sign a GET of `url` now (Signature-Agent, Signature-Input, Signature). */
  sign(url: string): Promise<Record<string, string>>;
}

export function webBotAuthSigner(baseUrl: string, key: () => Promise<ProbeKey>, now: () => Date, userAgent: string): WebBotAuthSigner {
  const agent = `sig1="${baseUrl}${KEY_DIRECTORY_PATH}"`;
  // Importing the key into WebCrypto cost more than signing; import it once per key (the
  // key is loaded once too, but compare by identity so a rotated key is picked up).
  let imported: { key: ProbeKey; signer: ReturnType<typeof signerFromJWK> } | undefined;
  const signerFor = (k: ProbeKey) => {
    if (imported?.key !== k) {
      const signer = signerFromJWK({ ...(k.privateKey.export({ format: 'jwk' }) as JsonWebKey) });
      signer.catch(() => { imported = undefined; }); // a failed import is retried by the next scan
      imported = { key: k, signer };
    }
    return imported.signer;
  };
  return {
    userAgent,
    async sign(url) {
      const k = await key();
      const signer = await signerFor(k);
      const created = now();
      const headers = await signatureHeaders(new Request(url, { headers: { 'Signature-Agent': agent } }), signer, {
        created, expires: new Date(created.getTime() + VALIDITY_MS),
      });
      return { 'signature-agent': agent, 'signature-input': headers['Signature-Input'], signature: headers.Signature };
    },
  };
}
