// The partner console (GET /console) and its script (/assets/console.js, console.js beside this
// file). The page is fixed HTML: everything it shows about a key (batches, watches, budget) is
// fetched by the script with the key as the bearer header and written as text nodes, never as
// markup, so a domain or label chosen by anyone can only ever show as text. The key lives in
// sessionStorage for the tab's session; it is never put in a URL, a cookie or the page.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STYLESHEET_LINK } from '../report/styles.ts';

export const CONSOLE_SCRIPT = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'console.js'), 'utf8');

/** Scripts and fetches of this origin only; the form is never posted (the script reads it). */
export const CONSOLE_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const CONSOLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow"><link rel="icon" href="data:,">
<title>Partner console · agent-readiness</title>${STYLESHEET_LINK}<script src="/assets/console.js" defer></script></head>
<body><main>
<h1>Partner console</h1>
<p class="muted">Your batches and watches, and what is left of your key's scans today.</p>
<noscript><p>This page needs JavaScript: it sends your key only as a request header, which a plain link cannot do. The API answers the same lists: <code>GET /batches</code>, <code>GET /watches</code> and <code>GET /keys/me</code>.</p></noscript>
<p id="status" role="status" aria-live="polite"></p>
<section id="signin" aria-labelledby="signin-h" hidden>
<h2 id="signin-h">Sign in</h2>
<form id="signin-form">
<p><label for="key">Partner API key</label><br><input id="key" name="key" type="password" autocomplete="off" spellcheck="false" required size="40" pattern="ark_.*" aria-describedby="key-help"></p>
<p id="key-help" class="small muted">Kept in this tab's session storage until you sign out or close the tab; sent only as the <code>Authorization</code> header, never in a link or a cookie.</p>
<p><button type="submit">Sign in</button></p>
</form>
</section>
<section id="signed" aria-labelledby="key-h" hidden>
<h2 id="key-h">Key</h2>
<dl class="kv"><dt>Name</dt><dd id="key-name"></dd><dt>Daily scans</dt><dd id="key-limit"></dd><dt>Left today</dt><dd id="key-left"></dd><dt>Refills</dt><dd id="key-reset"></dd></dl>
<p><button type="button" id="signout">Sign out</button></p>
<h2 id="batches-h">Batches</h2>
<ul id="batches" class="items" aria-labelledby="batches-h"></ul>
<p><button type="button" id="batches-more" hidden>More batches</button></p>
<h2 id="watches-h">Watches</h2>
<ul id="watches" class="items" aria-labelledby="watches-h"></ul>
<p><button type="button" id="watches-more" hidden>More watches</button></p>
</section>
</main></body></html>`;
