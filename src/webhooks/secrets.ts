// A watch's webhook secret is derived, never stored: whsec_ + base64url(HMAC-SHA256(master key,
// "webhook:<watchId>:<version>")). HMAC needs the secret itself to sign, so it cannot be kept
// only as a hash; deriving it keeps no per-watch secret in the database at all. The master key
// is WEBHOOK_SECRET_KEY (set it in production: then a copy of the database alone reveals no
// secret), else one generated once and kept in the database beside the probe key, which
// protects against nothing a database copy would not reveal, and is said so in the README.
// `version` lets a secret be replaced without a new watch id.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** The name of the generated master key in the signing_keys table. */
export const MASTER_KEY_NAME = 'webhook-secrets';

export function newMasterKey(): string {
  return randomBytes(32).toString('base64url');
}

export function deriveWebhookSecret(masterKey: string, watchId: string, version: number): string {
  return SECRET_PREFIX + createHmac('sha256', Buffer.from(masterKey, 'base64url')).update(`webhook:${watchId}:${version}`).digest('base64url');
}
