// The page's only stylesheet, inlined and allowed by its hash in the CSP (no 'unsafe-inline',
// no script at all). Readable on a 360 px phone: wide tables scroll inside their own region.
import { createHash } from 'node:crypto';

export const STYLE = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--ok:#116329;--warn:#7d4e00;--bad:#a40e26;--info:#0a3069}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:64rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
a{color:var(--info)}
.chip{display:inline-block;padding:.1rem .6rem;border-radius:1rem;font-weight:600;border:2px solid currentColor}
.h-open,.s-pass{color:var(--ok)}.h-partially-blocked,.h-contradictory,.s-inconclusive,.s-skipped{color:var(--warn)}
.h-agent-hostile,.s-fail,.s-error{color:var(--bad)}.h-unknown{color:var(--muted)}
.score{font-size:2.5rem;font-weight:700;line-height:1}
.muted{color:var(--muted)}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.5rem}
.card{background:var(--soft);border:1px solid var(--line);border-radius:.5rem;padding:.6rem}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:.5rem}
.scroll:focus{outline:3px solid var(--info)}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid var(--line)}
th{background:var(--soft)}
td.wrap{overflow-wrap:anywhere;min-width:12rem}
td p{margin:0 0 .4rem}
details{margin:.4rem 0}
summary{cursor:pointer;font-weight:600}
code{font-size:.85rem;overflow-wrap:anywhere}
ul{padding-left:1.2rem}
`;

export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}`;

/** No script may run, nothing may be framed, posted or loaded from elsewhere. */
export const PAGE_CSP = `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** Headers for every HTML page of a report (capability URLs: no referrer, no indexing). */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'X-Frame-Options': 'DENY',
};
