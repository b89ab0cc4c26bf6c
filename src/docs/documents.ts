// The information documents, read once from src/docs/text/ and filled with this
// instance's base URL and versions. The methodology's check table is derived from the
// rubric registry, like the catalog, so the two cannot disagree.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { REQUEST_KINDS } from '../scanner/requests.ts';
import { getRoster, probeableAgents } from '../scanner/roster.ts';
import { FINGERPRINTS_VERSION, RUBRIC_VERSION, ROSTER_VERSION } from '../scanner/versions.ts';
import { checksTable } from './checks-table.ts';
import { agentRequestsSection } from './agent-requests.ts';
import { platformFixesSection } from './platform-fixes.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'text');

export interface Documents {
  methodology: string;
  llmsTxt: string;
  agents: string;
  auth: string;
  privacyHtml: string;
  termsHtml: string;
  /** The Markdown sources of the two HTML documents, for agents that ask for text/markdown. */
  privacyMd: string;
  termsMd: string;
}

function fill(name: string, baseUrl: string): string {
  return fs
    .readFileSync(path.join(dir, name), 'utf8')
    // The edge corpus's figures, written from the corpus by `npm run corpus:figures` (checked by its table test).
    .replace('{{EDGE_CORPUS}}', () => fs.readFileSync(path.join(dir, 'edge-corpus.md'), 'utf8').trimEnd())
    .replaceAll('{{BASE_URL}}', baseUrl)
    .replaceAll('{{RUBRIC}}', RUBRIC_VERSION)
    .replaceAll('{{ROSTER}}', ROSTER_VERSION)
    .replaceAll('{{FINGERPRINTS}}', FINGERPRINTS_VERSION)
    // Counted from the roster: token-only agents are read in robots.txt, never requested.
    .replaceAll('{{AGENTS_IN_ROSTER}}', String(getRoster().length))
    .replaceAll('{{AGENTS_REQUESTED}}', String(probeableAgents().length))
    .replace('{{REQUEST_KINDS}}', () => REQUEST_KINDS.map((k) => `  - \`${k.key}${k.key.endsWith(':') ? '…' : ''}\`: ${k.what}`).join('\n'))
    .replace('{{CHECKS}}', () => checksTable())
    .replace('{{AGENT_REQUESTS}}', () => agentRequestsSection())
    .replace('{{PLATFORM_FIXES}}', () => platformFixesSection());
}

export function htmlPage(title: string, markdown: string): string {
  const body = marked.parse(markdown, { async: false });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · agent-readiness</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}a{color:#0b57d0}code{background:#f1f3f4;padding:0 .2em}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The documents for one public origin; built once by the composition root (src/services.ts). */
export function documentsFor(baseUrl: string): Documents {
  return {
    methodology: fill('methodology.md', baseUrl),
    llmsTxt: fill('llms.txt', baseUrl),
    agents: fill('agents.md', baseUrl),
    auth: fill('auth.md', baseUrl),
    privacyHtml: htmlPage('Privacy', fill('privacy.md', baseUrl)),
    termsHtml: htmlPage('Terms of use', fill('terms.md', baseUrl)),
    privacyMd: fill('privacy.md', baseUrl),
    termsMd: fill('terms.md', baseUrl),
  };
}
