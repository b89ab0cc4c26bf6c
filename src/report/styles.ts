// The pages' only stylesheet, served as a file named by its content (STYLESHEET_PATH, cached
// for a year) and linked with its hash as subresource integrity. It was inlined, a third of
// every report page's 17 KB on every view (bench/results.md). The CSP allows stylesheets from
// this origin only (no 'unsafe-inline', no script at all, so no style attributes either:
// everything is a class); every response carries nosniff, so only a text/css response can
// be applied as one. Outcomes always carry an icon and a word; colour only repeats what the
// word says.
import { createHash } from 'node:crypto';

export const STYLE = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--ok:#116329;--warn:#7d4e00;--bad:#a40e26;--info:#0a3069}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:78rem;margin:0 auto;padding:.75rem 1rem 2rem}
h1{font-size:1.6rem;margin:.25rem 0;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.75rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{font-size:1rem;margin:1rem 0 .25rem}
a{color:var(--info)}
p{margin:.4rem 0}
nav ul{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.9rem}
.muted{color:var(--muted)}
.small{font-size:.85rem}
.chip{display:inline-block;padding:.1rem .6rem;border-radius:1rem;font-weight:600;border:2px solid currentColor}
.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}.none{color:var(--muted)}
.top{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,22rem),1fr));gap:1rem;align-items:start}
.top>section>h2{margin-top:.75rem}
.score{font-size:2.75rem;font-weight:700;line-height:1}
.cats{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.4rem;margin:.5rem 0 0;padding:0;list-style:none}
.cats li{background:var(--soft);border:1px solid var(--line);border-radius:.4rem;padding:.3rem .5rem;font-size:.9rem}
.cats strong{float:right}
.bar{display:block;width:100%;height:6px;margin-top:.2rem}
.bar .track{fill:var(--line)}.bar .fill{fill:var(--info)}
ol.fixes{padding-left:0;list-style:none;margin:.25rem 0}
ol.fixes li{border:1px solid var(--line);border-radius:.4rem;padding:.4rem .6rem;margin:.4rem 0;display:grid;grid-template-columns:4.5rem 1fr;gap:.1rem .6rem}
.gain{font-weight:700;font-size:1.1rem;color:var(--info);grid-row:span 3}
ol.fixes li>:not(.gain){grid-column:2}
.gain small{display:block;font-weight:400;font-size:.75rem;color:var(--muted)}
.groups{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,34rem),1fr));gap:.75rem 1rem;align-items:start}
.group{position:relative}
table{border-collapse:collapse;width:100%;font-size:.9rem}
caption{text-align:left;font-weight:600;padding:.15rem 0}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
thead th{background:var(--soft);font-size:.8rem}
table.agents{font-size:.82rem;line-height:1.3;table-layout:fixed}
table.agents th,table.agents td{padding:.12rem .3rem;vertical-align:middle}
table.agents thead th{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
table.agents tbody th{font-weight:600;overflow-wrap:anywhere}
table.agents col.c-agent{width:24%}table.agents col.c-r{width:18%}table.agents col.c-n{width:15%}table.agents col.c-y{width:10%}
table.agents .o{white-space:nowrap}
.lbl{display:none}
table.agents .by{display:block;font-size:.7rem;color:var(--muted);overflow-wrap:anywhere}
.i{display:inline-block;width:1.1em;text-align:center;font-weight:700}
.group details{margin:0}
.group summary{font-weight:400;list-style:none;white-space:nowrap;text-decoration:underline dotted;text-underline-offset:3px}
.group summary::-webkit-details-marker{display:none}
.group summary::after{content:" ▾";color:var(--muted);font-size:.8em}
.group details[open]>.pop{position:absolute;left:0;right:0;z-index:2;background:var(--bg);border:1px solid var(--fg);border-radius:.4rem;padding:.4rem .6rem;box-shadow:0 4px 12px rgb(0 0 0 / .2);font-size:.85rem}
.pop ul{margin:.2rem 0}
.pop li{overflow-wrap:anywhere}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:.5rem}
.scroll:focus{outline:3px solid var(--info)}
td.wrap{overflow-wrap:anywhere}
td p{margin:0 0 .3rem}
details{margin:.3rem 0}
summary{cursor:pointer;font-weight:600}
summary:focus-visible,a:focus-visible{outline:3px solid var(--info);outline-offset:2px}
code{font-size:.85rem;overflow-wrap:anywhere}
pre{background:var(--soft);border:1px solid var(--line);border-radius:.4rem;padding:.4rem .6rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}
ul{padding-left:1.2rem}
.ev{border-bottom:1px solid var(--line);padding:.15rem 0}
.ev>summary{font-weight:400}
.ev .sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,20rem),1fr));gap:.5rem 1rem}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .6rem;margin:.2rem 0;font-size:.85rem}
dl.kv dt{color:var(--muted)}dl.kv dd{margin:0;overflow-wrap:anywhere}
.chart{width:100%;max-width:40rem;height:auto;display:block}
.chart .axis{stroke:var(--line);stroke-width:1}.chart .line{fill:none;stroke:var(--info);stroke-width:2}
.chart .pt{fill:var(--info)}.chart .now{fill:var(--fg)}.chart .nil{fill:var(--bg);stroke:var(--muted);stroke-width:1.5}
.chart text{font-size:11px;fill:var(--muted)}
.udiff .da{color:var(--ok);font-weight:600}.udiff .dd{color:var(--bad);font-weight:600}.udiff .dh{color:var(--muted)}
.udiff:focus{outline:3px solid var(--info)}
.pfixes{min-width:0;overflow-wrap:anywhere}.pfix p{margin:.2rem 0}a.doc{overflow-wrap:anywhere}
table.grid{width:auto;font-size:.8rem}table.grid th,table.grid td{padding:.15rem .4rem;white-space:nowrap;text-align:left}table.grid tbody th{position:sticky;left:0;background:var(--bg);font-weight:400}
ul.items{list-style:none;padding-left:0}ul.items>li{overflow-wrap:anywhere;min-width:0}input{max-width:100%}
@media (max-width:40rem){
main{padding:.5rem .6rem 2rem}
table.agents,table.agents tbody{display:block}
table.agents caption{display:block}
table.agents thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.agents colgroup{display:none}
table.agents tr{display:grid;grid-template-columns:repeat(3,1fr);grid-template-areas:"a a v" "r n1 n2";border-bottom:1px solid var(--line);padding:.2rem 0}
table.agents.yours tr{grid-template-columns:repeat(4,1fr);grid-template-areas:"a a v v" "r n1 n2 n3"}
table.agents th,table.agents td{border:0;padding:.1rem .25rem}
table.agents tbody th{grid-area:a}table.agents td.r{grid-area:r}table.agents td.n1{grid-area:n1}table.agents td.n2{grid-area:n2}table.agents td.n3{grid-area:n3}table.agents td.v{grid-area:v}
table.agents td.span{grid-column:2/-1;grid-row:2}
.lbl{display:block;font-size:.7rem;color:var(--muted)}
ol.fixes li{grid-template-columns:3.5rem 1fr}
}
`;

/** The stylesheet as sent, encoded once. */
export const STYLESHEET_BODY = Buffer.from(STYLE, 'utf8');
const DIGEST = createHash('sha256').update(STYLESHEET_BODY).digest();

export const STYLE_HASH = `sha256-${DIGEST.toString('base64')}`;

/** The stylesheet's name: its content's SHA-256, so a changed stylesheet gets a new URL. */
export const STYLESHEET_NAME = `report.${DIGEST.toString('hex').slice(0, 16)}`;
export const STYLESHEET_PATH = `/assets/${STYLESHEET_NAME}.css`;
/** A name never changes content, so the current one may be kept for a year. */
export const STYLESHEET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The `<link>` of a page: the stylesheet, pinned by its hash. */
export const STYLESHEET_LINK = `<link rel="stylesheet" href="${STYLESHEET_PATH}" integrity="${STYLE_HASH}">`;

/** No script may run, nothing may be framed, posted or loaded from elsewhere. */
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers for every HTML page of a report (capability URLs: no referrer, no indexing). */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'X-Frame-Options': 'DENY',
};
