// A unified diff as the pages show it: each line marked by class as well as by its own +/- sign.
import { html, type SafeHtml } from './html.ts';

/** The unified diff with each line marked by class as well as by its own +/- sign. */
export function unified(text: string, label = 'robots.txt, unified diff: lines starting with + were added, with - removed'): SafeHtml {
  const lines = text.replace(/\n$/, '').split('\n').map((line) => {
    const cls = line.startsWith('+++') || line.startsWith('---') ? 'dh' : line.startsWith('@@') ? 'dh' : line.startsWith('+') ? 'da' : line.startsWith('-') ? 'dd' : '';
    return cls ? html`<span class="${cls}">${line}</span>\n` : html`${line}\n`;
  });
  return html`<pre class="udiff" tabindex="0" aria-label="${label}"><code>${lines}</code></pre>`;
}
