/**
 * What a home page says, kept small enough to outlive its body: the title, the canonical URL, the
 * visible text's length, hash and a bottom-k sketch of its word shingles, and the gate wording it
 * carries (gate-wording.ts). Grid answers drop their bodies on arrival (probe.ts keepBody), so the
 * comparison of each agent's page with the browser's (content.ts) and the soft-block rule
 * (soft-block.ts) read this digest instead: made from the same parse that measures the visible
 * text, once per distinct body of a scan.
 */
import { hash } from 'node:crypto';
import { fold } from './rendered.ts';
import { findGateWording, type GateWording } from './gate-wording.ts';
import type { PageFacts } from './page.ts';

export interface PageDigest {
  /** The title, whitespace collapsed and case folded. */
  title: string;
  /** The canonical URL (`<link rel="canonical">`) resolved against the page's URL; '' when none. */
  canonical: string;
  textChars: number;
  /**
   * Words of the visible text: runs of two or more letters or digits, and in scripts written
   * without spaces (Han, kana, Thai) every two characters. Stray markup a page carries as text
   * (escaped line breaks, punctuation) adds characters but no words.
   */
  words: number;
  /** SHA-256 of the folded visible text: two pages with the same text have the same hash. */
  textSha: string;
  /**
   * The SKETCH smallest 32-bit hashes of the text's word shingles (runs of SHINGLE words),
   * ascending. Two sketches estimate the Jaccard similarity of the texts (Broder's bottom-k), so
   * a page whose date line or counter changed between two requests still reads as the same page.
   */
  sketch: number[];
  /** Gate and denial wording found in the title and visible text (empty when none). */
  wording: GateWording;
  /** A password field: a sign-in form. */
  passwordField: boolean;
}

const SHINGLE = 4;
const SKETCH = 64;

/** FNV-1a, 32 bits: a fast, well-spread hash for shingles (not a security boundary). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function sketchOf(folded: string): number[] {
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  const hashes = new Set<number>();
  if (words.length > 0 && words.length < SHINGLE) hashes.add(fnv1a(words.join(' ')));
  for (let i = 0; i + SHINGLE <= words.length; i++) hashes.add(fnv1a(words.slice(i, i + SHINGLE).join(' ')));
  return [...hashes].sort((a, b) => a - b).slice(0, SKETCH);
}

/** Estimated Jaccard similarity of two texts from their sketches (1 for two empty texts). */
export function similarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  // Bottom-k of the union, and how many of those both sketches hold.
  const union: number[] = [];
  let i = 0;
  let j = 0;
  let both = 0;
  while (union.length < SKETCH && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x < y)) union.push(a[i++]!);
    else if (x === undefined || y < x) union.push(b[j++]!);
    else {
      union.push(a[i++]!);
      j++;
      both++;
    }
  }
  return union.length === 0 ? 1 : both / union.length;
}

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/gu;

export function wordCount(text: string): number {
  const spaced = text.replace(UNSPACED, ' ').match(/[\p{L}\p{N}]{2,}/gu)?.length ?? 0;
  return spaced + Math.floor((text.match(UNSPACED)?.length ?? 0) / 2);
}

const PASSWORD_TYPE = /\btype\s*=\s*["']?password\b/i;
/** Inputs examined, and the length of one tag read: a hostile page of endless `<input` costs no more than this. */
const MAX_INPUTS = 200;
const MAX_TAG = 512;

/**
 * A password field among the page's first inputs. Each `<input` tag is read on its own, up to
 * its `>` or MAX_TAG characters: one pattern over the whole body (`<input[^>]*type=password`)
 * backtracks quadratically on a page of unclosed `<input` tags.
 */
export function hasPasswordField(body: string): boolean {
  const lower = body.length > 262_144 ? body.slice(0, 262_144).toLowerCase() : body.toLowerCase();
  let at = lower.indexOf('<input');
  for (let n = 0; at >= 0 && n < MAX_INPUTS; n++) {
    const end = lower.indexOf('>', at);
    const tag = lower.slice(at, end < 0 ? at + MAX_TAG : Math.min(end, at + MAX_TAG));
    if (PASSWORD_TYPE.test(tag)) return true;
    at = lower.indexOf('<input', at + 6);
  }
  return false;
}

function resolve(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href.trim();
  }
}

export function digestOf(facts: PageFacts, body: string, url: string): PageDigest {
  const text = fold(facts.flowText);
  const canonical = facts.links.find((l) => l.rel.includes('canonical'))?.href;
  return {
    title: fold(facts.title),
    canonical: canonical ? resolve(canonical, url) : '',
    textChars: facts.text.length,
    words: wordCount(text),
    textSha: hash('sha256', text, 'hex'),
    sketch: sketchOf(text),
    wording: findGateWording(`${fold(facts.title)} ${text}`),
    passwordField: hasPasswordField(body),
  };
}
