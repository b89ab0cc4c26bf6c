// "Watch this site" on an archived report: a plain form that posts to /r/{scanId}/watch
// (submitWatchForm) and works with JavaScript off; /assets/watch-form.js, when it runs, posts
// the same form for JSON and says the answer in place. Either way the watch follows
// createWatch's rules: double opt-in, the per-IP budget, the human-verification gate when on.
import { html, SafeHtml } from './html.ts';
import { PAGE_HEADERS } from './styles.ts';

export interface WatchFormOptions {
  /** The report's id: the form watches the report's own domain, never one typed in. */
  scanId: string;
  turnstileSiteKey?: string;
}

/** A report page with the form may post to this origin and run its own script (and Turnstile's, when the gate is on). */
export function reportCsp(turnstile: boolean): string {
  const scripts = turnstile ? "script-src 'self' https://challenges.cloudflare.com; frame-src https://challenges.cloudflare.com" : "script-src 'self'";
  return `default-src 'none'; style-src 'self'; img-src 'self' data:; ${scripts}; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

export function reportPageHeaders(turnstile: boolean): Record<string, string> {
  return { ...PAGE_HEADERS, 'Content-Security-Policy': reportCsp(turnstile) };
}

export function watchFormSection(domainShown: string, o: WatchFormOptions): SafeHtml {
  const turnstile = o.turnstileSiteKey
    ? html`<div class="cf-turnstile" data-sitekey="${o.turnstileSiteKey}"></div><script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>`
    : '';
  return html`<h2 id="watch">Watch this site</h2>
<p>Rescan <strong>${domainShown}</strong> every week (or day) and hear when its readiness for AI agents changes. We mail a confirmation link first; nothing runs until you follow it.</p>
<form method="post" action="/r/${o.scanId}/watch" class="watch-form" data-watch-form>
<p><label for="watch-name">Your name</label><br><input id="watch-name" name="name" required maxlength="120" autocomplete="name"></p>
<p><label for="watch-email">Email for the alerts</label><br><input id="watch-email" name="email" type="email" required maxlength="254" autocomplete="email"></p>
<p><label for="watch-every">How often</label><br><select id="watch-every" name="every"><option value="week" selected>every week</option><option value="day">every day</option></select></p>
<p><label for="watch-threshold">Alert when the score falls by at least</label><br><input id="watch-threshold" name="threshold" type="number" min="1" max="100" value="5" inputmode="numeric"> points</p>
<p><label for="watch-hook">Webhook URL (optional, https)</label><br><input id="watch-hook" name="webhookUrl" type="url" maxlength="2048" placeholder="https://hooks.example.com/agent-readiness"></p>
${turnstile}
<p><button type="submit">Watch this site</button></p>
<p role="status" aria-live="polite" data-watch-status></p>
</form>
<script src="/assets/watch-form.js" defer></script>`;
}
