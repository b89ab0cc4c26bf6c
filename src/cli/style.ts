/**
 * Colour for people, plain text for everything else: colour only when the
 * stream is a terminal and NO_COLOR (https://no-color.org) is unset or empty.
 */
import type { Env } from './proxy-env.ts';

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  magenta(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;

export function colourEnabled(stream: { isTTY?: boolean }, env: Env): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}

export function makeStyle(enabled: boolean): Style {
  if (!enabled) {
    const id = (s: string) => s;
    return { bold: id, dim: id, red: id, green: id, yellow: id, magenta: id };
  }
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), magenta: wrap(35, 39) };
}

/** Visible width of a string that may carry colour codes. */
export function visibleLength(s: string): number {
  return s.replace(/\x1b\[[0-9;]*m/g, '').length;
}

export function padEnd(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - visibleLength(s)));
}
