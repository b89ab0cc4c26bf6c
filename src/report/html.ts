// A tiny auto-escaping template tag. Every interpolated value is HTML-escaped unless it is
// itself the output of `html` — so site-derived text (titles, robots.txt lines, headers) can
// never become markup, whichever template it lands in.
import escapeHtml from 'escape-html';

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

function render(v: unknown): string {
  if (v instanceof SafeHtml) return v.value;
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Text whose `backticked` spans become <code>, every part escaped (details written in Markdown style). */
export function inlineCode(text: string): SafeHtml {
  return new SafeHtml(text.split('`').map((part, i) => (i % 2 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part))).join(''));
}
