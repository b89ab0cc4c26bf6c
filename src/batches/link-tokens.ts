// The token of a batch's capability links (links.summaryPage, links.resultsPage), derived as a
// watch's manage token is (src/watches/tokens.ts): HMAC-SHA256 of the webhook master key over
// the batch id and the links' version. Nothing is stored, so a copy of the database alone opens
// no link when WEBHOOK_SECRET_KEY is set; bumping the version (rotation) kills every older link.
import { createHmac } from 'node:crypto';
import { secretsEqual } from '../security/compare.ts';

export function batchLinkToken(masterKey: string, batchId: string, version: number): string {
  return createHmac('sha256', Buffer.from(masterKey, 'base64url')).update(`batch-links:${batchId}:${version}`).digest('base64url');
}

/** Whether `given` is the batch's current link token, compared in constant time. */
export function linkTokenMatches(masterKey: string, batchId: string, version: number, given: string | undefined): boolean {
  return secretsEqual(given, batchLinkToken(masterKey, batchId, version));
}
