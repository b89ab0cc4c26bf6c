// The front door: what the service measures in two sentences, and the scan form. Server-
// rendered; the form posts to `POST /` and the browser lands on the report's permalink, or
// back here with a banner that says what to fix, why not, or when to retry. With JavaScript
// on, /assets/home.js shows the scan's progress while the POST runs (it changes nothing else).
// The same content is served as Markdown to agents (Accept: text/markdown).
import { createHash } from 'node:crypto';
import { html, inlineCode, SafeHtml } from '../report/html.ts';
import { STYLESHEET_LINK } from '../report/styles.ts';
import { getRoster, probeableAgents } from '../scanner/roster.ts';
import { SCORING_RUBRICS } from '../scanner/rubrics.ts';

export const PROFILES = ['general', 'dev-platform', 'docs', 'publisher'] as const;

/** What the visitor typed, echoed back (escaped) when the form comes back with a problem. */
export interface FormValues { domain?: string; name?: string; email?: string; phone?: string; role?: string; profile?: string; rubric?: string; intent?: Record<string, string> }

/** The advanced options' intent fields: one select per role, named `intent-<role>`, labelled in a person's words. */
export const INTENT_FIELDS: ReadonlyArray<{ role: 'training' | 'search' | 'user-fetch' | 'archive'; label: string }> = [
  { role: 'training', label: 'Training crawlers (GPTBot, ClaudeBot, ...)' },
  { role: 'search', label: 'AI search crawlers (OAI-SearchBot, PerplexityBot, ...)' },
  { role: 'user-fetch', label: 'Fetchers acting for a user (ChatGPT-User, Claude-User, ...)' },
  { role: 'archive', label: 'Archive crawlers (CCBot, archive.org_bot, ...)' },
];
const WISHES = [['allow', 'allow'], ['block', 'block'], ['charge', 'charge (HTTP 402)']] as const;

/** A problem to show above the form. */
export interface FormProblem { title: string; message: string; hint?: string; retryAfterSeconds?: number }

export interface HomeOptions {
  baseUrl: string;
  /** Cloudflare Turnstile site key, when the human-verification gate is on. */
  turnstileSiteKey?: string;
}

/** The form's own rules, inline; the shared stylesheet is the report pages' file (cached across them). */
const FORM_STYLE = `
form{display:grid;gap:.8rem;max-width:36rem}
label{display:grid;gap:.2rem;font-weight:600}
input,select{font:inherit;padding:.5rem;border:1px solid var(--muted);border-radius:.4rem;width:100%}
input:focus,select:focus,button:focus{outline:3px solid var(--info);outline-offset:1px}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:var(--info);color:#fff;cursor:pointer;justify-self:start}
.opt{font-weight:400;color:var(--muted)}
button:disabled{opacity:.65;cursor:progress}
.alert{border:2px solid var(--bad);border-radius:.5rem;padding:.6rem .8rem;margin:1rem 0;max-width:36rem}
.alert h2{margin:0 0 .3rem;border:0;font-size:1.1rem;color:var(--bad)}
.lede{font-size:1.1rem;max-width:44rem}
.lede+p{max-width:44rem}
.progress{border:2px solid var(--info);border-radius:.5rem;padding:.6rem .8rem;margin:1rem 0;max-width:36rem}
.progress h2{margin:0 0 .3rem;border:0;font-size:1.1rem}
.progress ol{margin:.4rem 0 0;padding-left:1.4rem}
.progress li{margin:.2rem 0}
.progress li[data-status="done"] .state{color:var(--ok);font-weight:600}
.progress li[data-status="running"] .state{font-weight:600}
details{border:1px solid var(--muted);border-radius:.4rem;padding:.4rem .8rem}
details[open]{display:grid;gap:.6rem}
summary{cursor:pointer;font-weight:600}
`;

/** The CLI command the page prints: it names this service's API, so it runs as printed (example.com is the one thing to replace). */
export function cliCommand(baseUrl: string): string {
  return `npx agent-readiness scan example.com --name "Ada" --email ada@example.com --api ${baseUrl}`;
}

const HOME_STYLE_HASH = `sha256-${createHash('sha256').update(FORM_STYLE, 'utf8').digest('base64')}`;

/**
 * The page may post its form to this origin, run its own progress script (/assets/home.js,
 * no inline script) which listens to /scan/progress/{id} on this origin, and, only when the
 * gate is on, load the Turnstile widget.
 */
export function homeCsp(turnstile: boolean): string {
  const scripts = turnstile ? "script-src 'self' https://challenges.cloudflare.com; frame-src https://challenges.cloudflare.com" : "script-src 'self'";
  return `default-src 'none'; style-src 'self' '${HOME_STYLE_HASH}'; img-src 'self' data:; ${scripts}; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

// Counted from the roster, never typed: token-only agents (robots.txt names with no crawler of
// their own, such as Google-Extended) are read in robots.txt but never requested.
const AGENTS = getRoster().length;
const REQUESTED = probeableAgents().length;

const INTRO = [
  `agent-readiness tells you how your website treats AI agents: it reads what your robots.txt says to each of ${AGENTS} agents, then requests your home page as each of the ${REQUESTED} that send requests of their own${AGENTS > REQUESTED ? ` (the other ${AGENTS - REQUESTED} are robots.txt names only)` : ''}, from two independent cloud networks, and compares what your edge really does with what a browser gets.`,
  'You get a headline, a per-agent matrix, a score from a versioned rubric with the fixes worth most, and a permalink you can share; the report link is also mailed to you.',
];

function jsonLd(baseUrl: string): SafeHtml {
  const doc = {
    '@context': 'https://schema.org',
    '@type': 'WebApplication',
    name: 'agent-readiness',
    url: `${baseUrl}/`,
    description: INTRO[0],
    applicationCategory: 'DeveloperApplication',
    operatingSystem: 'Any',
    offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
    potentialAction: { '@type': 'Action', name: 'Scan a website', target: { '@type': 'EntryPoint', urlTemplate: `${baseUrl}/`, httpMethod: 'POST', contentType: 'application/x-www-form-urlencoded' } },
  };
  // `<` is escaped so no value can close the script element.
  return new SafeHtml(`<script type="application/ld+json">${JSON.stringify(doc).replace(/</g, '\\u003c')}</script>`);
}

/** Advanced options: what the owner wants each role to get; the report then says whether the site does it (never the score). */
function intentFields(v: FormValues): SafeHtml {
  const chosen = v.intent ?? {};
  const rows = INTENT_FIELDS.map((f) => {
    const options = WISHES.map(([value, words]) => html`<option value="${value}"${chosen[f.role] === value ? new SafeHtml(' selected') : ''}>${words}</option>`);
    return html`<label for="f-intent-${f.role}"><span>${f.label}</span>
<select id="f-intent-${f.role}" name="intent-${f.role}"><option value="">no wish</option>${options}</select></label>`;
  });
  return html`<fieldset><legend>What you want AI agents to get</legend>
<p class="opt">Say what each kind of agent should get, and the report says whether your robots.txt and your edge both do it, with what to change where not. Your score stays the same either way.</p>
${rows}</fieldset>`;
}

function field(name: Exclude<keyof FormValues, 'intent'>, label: string, v: FormValues, attrs: SafeHtml, optional = false): SafeHtml {
  // The label's words are one grid row, so "(optional)" reads on the same line as the name.
  return html`<label for="f-${name}"><span>${label}${optional ? html` <span class="opt">(optional)</span>` : ''}</span>
<input id="f-${name}" name="${name}" value="${v[name] ?? ''}" ${attrs}></label>`;
}

/** A wait in the largest whole unit a person reads at a glance: "45 seconds", "30 minutes", "2 hours". */
export function waitWords(seconds: number): string {
  const unit = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (seconds < 120) return unit(seconds, 'second');
  if (seconds < 7200) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

export function renderHome(o: HomeOptions, values: FormValues = {}, problem?: FormProblem): string {
  const v = values;
  const alert = problem
    ? html`<div class="alert" role="alert" id="problem"><h2>${problem.title}</h2><p>${inlineCode(problem.message)}</p>${problem.hint ? html`<p class="muted">${inlineCode(problem.hint)}</p>` : ''}${problem.retryAfterSeconds ? html`<p>You can try again in ${waitWords(problem.retryAfterSeconds)}.</p>` : ''}</div>`
    : '';
  const turnstile = o.turnstileSiteKey
    ? html`<div class="cf-turnstile" data-sitekey="${o.turnstileSiteKey}"></div><script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>`
    : '';
  const profiles = PROFILES.map((p) => html`<option value="${p}"${v.profile === p ? new SafeHtml(' selected') : ''}>${p}</option>`);
  // The default rubric is the empty value, so a form left alone asks for nothing and gets the current rubric.
  const [current, ...older] = SCORING_RUBRICS;
  const rubrics = older.map((r) => html`<option value="${r.version}"${v.rubric === r.version ? new SafeHtml(' selected') : ''}>${r.version} (previous)</option>`);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${problem ? `${problem.title} · ` : ''}agent-readiness: is your site ready for AI agents?</title>
<meta name="description" content="${INTRO[0]}">
<link rel="canonical" href="${o.baseUrl}/"><link rel="icon" href="data:,"><link rel="alternate" type="text/markdown" href="/"><link rel="service-desc" type="application/json" href="/openapi.json">
${new SafeHtml(STYLESHEET_LINK)}<style>${new SafeHtml(FORM_STYLE)}</style>${jsonLd(o.baseUrl)}</head>
<body><main>
<h1>Is your site ready for AI agents?</h1>
<p class="lede">${INTRO[0]}</p>
<p>${INTRO[1]}</p>
${alert}
<form method="post" action="/" id="scan-form" aria-describedby="privacy">
${field('domain', 'Website', v, html`type="text" inputmode="url" autocomplete="url" required maxlength="2048" placeholder="example.com" autocapitalize="off" spellcheck="false"`)}
${field('name', 'Your name', v, html`type="text" autocomplete="name" required minlength="2" maxlength="120"`)}
${field('email', 'Your email (the report link is sent here)', v, html`type="email" autocomplete="email" required maxlength="254"`)}
${field('phone', 'Phone', v, html`type="tel" autocomplete="tel" maxlength="25"`, true)}
${field('role', 'Your role', v, html`type="text" autocomplete="organization-title" maxlength="80" placeholder="site owner"`, true)}
<label for="f-profile"><span>Kind of site <span class="opt">(optional: detected when left empty)</span></span>
<select id="f-profile" name="profile"><option value="">detect it</option>${profiles}</select></label>
<details id="advanced"${v.rubric || Object.keys(v.intent ?? {}).length ? new SafeHtml(' open') : ''}><summary>Advanced options</summary>
<label for="f-rubric"><span>Rubric <span class="opt">(how the score is computed; <a href="/api/checks">each rubric's checks and weights</a>)</span></span>
<select id="f-rubric" name="rubric"><option value="">${current!.version} (current)</option>${rubrics}</select></label>
${intentFields(v)}
</details>
${turnstile}
<button type="submit">Scan my site</button>
<p class="muted" id="privacy">A scan takes 10 to 30 seconds. Your contact details are never shown publicly; see <a href="/privacy">privacy</a> and <a href="/methodology.md">how we measure</a>.</p>
</form>
<p>Every report can also <strong>watch</strong> its site: a rescan every week or day, and a mail or webhook when its readiness changes.</p>
<section class="progress" id="progress" aria-labelledby="progress-h" hidden>
<h2 id="progress-h">Scan progress</h2>
<p id="progress-note" role="status" aria-live="polite"></p>
<ol id="progress-list"></ol>
</section>
<h2>For developers and agents</h2>
<ul>
<li><a href="/openapi.json">OpenAPI document</a> (POST /scan), <a href="/api/checks">the check catalog</a></li>
<li>MCP server at <code>${o.baseUrl}/mcp</code> (<a href="/.well-known/mcp.json">manifest</a>), <a href="/llms.txt">llms.txt</a>, <a href="/agents.md">agents.md</a></li>
<li>From your own network and in CI: <code>${cliCommand(o.baseUrl)}</code></li>
</ul>
</main><script src="/assets/home.js" defer></script></body></html>`.value;
}

export function renderHomeMarkdown(o: HomeOptions): string {
  return `# agent-readiness: is your site ready for AI agents?

${INTRO[0]}

${INTRO[1]}

## Scan a site

- In a browser: open ${o.baseUrl}/ and fill in the form (website, your name and email).
- Over HTTP: \`POST ${o.baseUrl}/scan\` with \`{"domain": "example.com", "lead": {"name": "Ada", "email": "ada@example.com"}}\`; see [the OpenAPI document](${o.baseUrl}/openapi.json).
- Watch a site: every report has a "Watch this site" form (a weekly or daily rescan, and a mail or webhook when its readiness changes), or \`POST ${o.baseUrl}/watches\`.
- Over MCP: the \`scan_site\` tool at ${o.baseUrl}/mcp ([manifest](${o.baseUrl}/.well-known/mcp.json)).
- From your own network and in CI: \`${cliCommand(o.baseUrl)}\`.

## More

- [How we measure](${o.baseUrl}/methodology.md)
- [The check catalog](${o.baseUrl}/api/checks)
- [llms.txt](${o.baseUrl}/llms.txt), [agents.md](${o.baseUrl}/agents.md)
- [Privacy](${o.baseUrl}/privacy), [Terms](${o.baseUrl}/terms)
`;
}
