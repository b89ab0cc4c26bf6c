// Every outcome the pages show, as an icon and a word with a tone class. The icon is hidden
// from assistive technology (the word says it), and the tone colour only repeats the word:
// nothing on a page is told by colour alone.
import { html, type SafeHtml } from './html.ts';

type Tone = 'ok' | 'warn' | 'bad' | 'none';
interface Word { icon: string; word: string; tone: Tone }

const EDGE: Record<string, Word> = {
  pass: { icon: '✓', word: 'served', tone: 'ok' },
  challenge: { icon: '⚠', word: 'challenge', tone: 'bad' },
  block: { icon: '✕', word: 'blocked', tone: 'bad' },
  'rate-limited': { icon: '◷', word: 'limited', tone: 'bad' },
  auth: { icon: '⊘', word: 'login', tone: 'bad' },
  'origin-error': { icon: '!', word: 'site error', tone: 'warn' },
  'transport-error': { icon: '!', word: 'no answer', tone: 'warn' },
  unprobed: { icon: '–', word: 'not probed', tone: 'none' },
};

const ROBOTS: Record<string, Word> = {
  allowed: { icon: '✓', word: 'allowed', tone: 'ok' },
  blocked: { icon: '✕', word: 'disallowed', tone: 'bad' },
  partial: { icon: '◐', word: 'partial', tone: 'warn' },
  unknown: { icon: '?', word: 'unknown', tone: 'none' },
};

const VERDICT: Record<string, Word> = {
  pass: { icon: '✓', word: 'open', tone: 'ok' },
  'blocked-consistent': { icon: '⊘', word: 'opted out', tone: 'warn' },
  denied: { icon: '✕', word: 'denied', tone: 'bad' },
  'reduced-content': { icon: '◐', word: 'reduced', tone: 'warn' },
  inconclusive: { icon: '?', word: 'unclear', tone: 'none' },
  'not-probeable': { icon: '–', word: 'robots only', tone: 'none' },
};

export const VERDICT_MEANING: Record<string, string> = {
  pass: 'robots.txt allows the agent and the edge served it like the browser control.',
  'blocked-consistent': 'robots.txt disallows the agent and the edge honours that choice.',
  denied: 'the edge turned away requests identifying as this agent that the browser control got through.',
  'reduced-content': 'the edge answered, but with much less content than the browser control got.',
  inconclusive: 'the networks disagreed or a control failed, so nothing is claimed.',
  'not-probeable': 'the agent has no crawler of its own to imitate; judged from robots.txt alone.',
};

const CHECK: Record<string, Word> = {
  pass: { icon: '✓', word: 'pass', tone: 'ok' },
  fail: { icon: '✕', word: 'fail', tone: 'bad' },
  inconclusive: { icon: '?', word: 'inconclusive', tone: 'none' },
  skipped: { icon: '–', word: 'skipped', tone: 'none' },
  error: { icon: '!', word: 'error', tone: 'warn' },
  'not-applicable': { icon: '–', word: 'not applicable', tone: 'none' },
  'not-verified': { icon: '?', word: 'not verified', tone: 'none' },
};

function render(w: Word | undefined, fallback: string, extra = ''): SafeHtml {
  const v = w ?? { icon: '?', word: fallback, tone: 'none' as Tone };
  return html`<span class="o ${v.tone}"><span class="i" aria-hidden="true">${v.icon}</span>${v.word}${extra ? html` ${extra}` : ''}</span>`;
}

export const edgeWord = (outcome: string, extra = ''): SafeHtml => render(EDGE[outcome], outcome, extra);
export const robotsWord = (says: string): SafeHtml => render(ROBOTS[says], says);
export const verdictWord = (verdict: string): SafeHtml => render(VERDICT[verdict], verdict);
export const checkWord = (status: string): SafeHtml => render(CHECK[status], status);

/** An HTTP status seen from the user's own network (the CLI reports statuses, not outcomes). */
export function statusWord(status: number): SafeHtml {
  if (status === 0) return render(EDGE['transport-error'], 'no answer');
  if (status < 300) return render({ icon: '✓', word: String(status), tone: 'ok' }, '');
  if (status < 400) return render({ icon: '→', word: String(status), tone: 'none' }, '');
  if (status === 401 || status === 402 || status === 403 || status === 429) return render({ icon: '✕', word: String(status), tone: 'bad' }, '');
  return render({ icon: '!', word: String(status), tone: 'warn' }, '');
}

export const HEADLINE_WORDS: Record<string, string> = {
  open: 'Open to agents',
  'partially-blocked': 'Partially blocked',
  'agent-hostile': 'Agent-hostile edge',
  contradictory: 'Contradictory signals',
  unknown: 'Unknown (could not measure)',
};

export const HEADLINE_ICON: Record<string, string> = { open: '✓', 'partially-blocked': '◐', 'agent-hostile': '✕', contradictory: '⚠', unknown: '?' };
