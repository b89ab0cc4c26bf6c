// The methodology's section on fixes per platform, rendered from the one table the report and
// the CLI use (src/scanner/data/platforms/), so the documentation cannot name a setting the
// reports do not.
import { PLATFORMS } from '../scanner/data/platforms/index.ts';

const ROLE: Record<string, string> = { edge: 'edge', host: 'host', origin: 'web server', cms: 'CMS', plugin: 'plugin' };
const EXAMPLE = { agents: ['ChatGPT-User', 'Claude-User'] };
const cell = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function platformFixesSection(): string {
  const rows = PLATFORMS.flatMap((p) => Object.entries(p.fixes).map(([check, build]) => {
    const f = build(EXAMPLE);
    return `| ${p.name} (${ROLE[p.role]}) | \`${check}\` | ${cell(f.setting)} | [${new URL(f.docUrl).host}](${f.docUrl}) |`;
  }));
  return [
    'A report names the platforms that served the page (`platforms`: an edge or host attributed by its',
    'fingerprint markers on the home page or on the agents\' answers; nginx, Apache or Caddy by the `server`',
    'header; WordPress by its markup) and, for each check that costs points, each such platform\'s own',
    'setting with its documentation page (`platformFixes`). The report page and the CLI show that fix first',
    'and the generic one folded. The nginx, Apache and Caddy snippets are tested on the real servers: each',
    'is loaded into the server in front of a test site whose Markdown check (or Link header check) fails,',
    'and the check then passes.',
    '',
    '| platform | check | setting | documentation |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
