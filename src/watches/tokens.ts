// A watch's two capabilities, derived (never stored) from the webhook master key and the watch
// id, as its webhook secret is (src/webhooks/secrets.ts):
//   manage token  in the manageUrl createWatch returns: getWatch, deleteWatch, testWatch;
//   mail token    in the links of the watch's mails only (confirm, unsubscribe), so following
//                 one proves the mailbox agreed: the creator's manage token cannot confirm.
// Deriving them lets every mail carry its links without a token kept in the database.
import { createHmac } from 'node:crypto';
import { secretsEqual } from '../security/compare.ts';

export type TokenKind = 'manage' | 'mail';

export function watchToken(masterKey: string, watchId: string, kind: TokenKind): string {
  return createHmac('sha256', Buffer.from(masterKey, 'base64url')).update(`watch-${kind}:${watchId}`).digest('base64url');
}

/** Whether `given` is the watch's token of this kind, compared in constant time (src/security/compare.ts). */
export function tokenMatches(masterKey: string, watchId: string, kind: TokenKind, given: string | undefined): boolean {
  return secretsEqual(given, watchToken(masterKey, watchId, kind));
}
