/**
 * Soft blocks (issue 36 item 3): a 200 page an agent got instead of the page the browser control
 * got on the same network, that refuses it. Such a cell is a denial, `block`, whatever its status,
 * with no vendor named unless the fingerprints attributed one. All of these must hold:
 *   1. the control got the real page: main content (MAIN_CONTENT_WORDS words or more), and not
 *      itself a short page of gate wording;
 *   2. the agent's page is not the control's (a page short for everyone, or the same page for the
 *      agent and the browser, stays `pass`), and is short: under SHORT_CHARS of visible text and
 *      under half the control's;
 *   3. it is a refusal, a licensing or sign-in gate, or a "verify you are human" page (its wording,
 *      gate-wording.ts, or a password field);
 *   4. it carries denial wording, or has no main content (under MAIN_CONTENT_WORDS words).
 * Decided from the digests the probes made on arrival (page-digest.ts): no extra request.
 */
import type { GateKind } from './gate-wording.ts';
import { similarity, type PageDigest } from './page-digest.ts';
import { NETWORKS, type FetchedView, type NetworkName } from './types.ts';

/**
 * Words (page-digest.ts wordCount) below which a page has no main content. A "verify you are
 * human" page with its form labels and footer links stays under it; a site's real home page, whose
 * text the verdicts compare from 500 characters on (about 80 words of English), does not.
 */
export const MAIN_CONTENT_WORDS = 80;
/** Visible text below which an agent's page is short enough to stand in for a refusal. */
export const SHORT_CHARS = 1500;
/** Estimated text similarity from which two pages are the same page (content.ts uses it too). */
export const SAME_TEXT = 0.8;

export interface SoftBlock { kinds: GateKind[]; phrases: string[]; noMainContent: boolean }

/** Does the control's page look like a site's real page? */
export function isRealPage(d: PageDigest): boolean {
  const gate = d.wording.kinds.length > 0 || d.passwordField;
  return d.words >= MAIN_CONTENT_WORDS && !(gate && d.textChars < SHORT_CHARS);
}

export function softBlockOf(control: PageDigest | undefined, agent: PageDigest | undefined): SoftBlock | null {
  if (!control || !agent || !isRealPage(control)) return null;
  if (agent.textSha === control.textSha || similarity(agent.sketch, control.sketch) >= SAME_TEXT) return null;
  if (agent.textChars >= SHORT_CHARS || 2 * agent.textChars >= control.textChars) return null;
  const kinds = [...agent.wording.kinds];
  const phrases = [...agent.wording.phrases];
  if (agent.passwordField && !kinds.includes('login')) {
    kinds.push('login');
    phrases.push('login: a password field');
  }
  if (kinds.length === 0) return null;
  const noMainContent = agent.words < MAIN_CONTENT_WORDS;
  if (!agent.wording.denial && !noMainContent) return null;
  return { kinds, phrases, noMainContent };
}

const KIND_WORDS: Record<GateKind, string> = { refusal: 'a refusal', licensing: 'a licensing gate', login: 'a sign-in gate', 'human-check': 'a "verify you are human" page' };

/** The marker a soft block leaves in the evidence record (also the matrix note's wording). */
export function softBlockMarker(sb: SoftBlock, agentChars: number, controlChars: number): string {
  const what = sb.kinds.map((k) => KIND_WORDS[k]).join(' and ');
  return `soft block: a 200 page with ${agentChars} characters of visible text instead of the browser's ${controlChars}, ${what} (${sb.phrases.join('; ')}${sb.noMainContent ? '; no main content' : ''})`;
}

/**
 * Turns every passing cell that is a soft block into `block`, in the view and its evidence record,
 * before the matrix is built. Returns the tokens and networks changed, for the matrix notes.
 */
export interface SoftBlockChange { token: string; network: NetworkName; marker: string }

export function applySoftBlocks(controls: Record<NetworkName, FetchedView>, cells: Record<string, Record<NetworkName, FetchedView>>): SoftBlockChange[] {
  const changed: SoftBlockChange[] = [];
  for (const [token, nets] of Object.entries(cells)) {
    for (const n of NETWORKS) {
      const cell = nets[n];
      const control = controls[n];
      if (!cell || cell.outcome !== 'pass' || control.outcome !== 'pass') continue;
      const sb = softBlockOf(control.digest, cell.digest);
      if (!sb) continue;
      const marker = softBlockMarker(sb, cell.digest!.textChars, control.digest!.textChars);
      cell.outcome = 'block';
      cell.record.outcome = 'block';
      cell.record.markers.push(marker);
      changed.push({ token, network: n, marker });
    }
  }
  return changed;
}
