// Every `agent-readiness scan` command we print (the home page in HTML and Markdown, the
// README, /methodology.md, /llms.txt, /agents.md, the CLI package's README, the CLI's own
// messages) is a command the CLI accepts as printed: no missing API, contact or value. Shell
// variables in the README's scripts stand for values their step provides; the run of the home
// page's command itself, from an empty folder with the packed CLI, is in packages.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeHTML } from 'entities';
import { parseCli, USAGE } from '../../src/cli/args.ts';
import { documentsFor } from '../../src/docs/documents.ts';
import { renderHome, renderHomeMarkdown } from '../../src/pages/home.ts';

const root = path.resolve(import.meta.dirname, '../..');
const BASE = 'https://agent-readiness.example';

/** Words of a shell command line: quotes and backslash-newlines as a shell reads them; stops at a redirection or pipe. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of line.replace(/\\\n\s*/g, ' ').matchAll(re)) {
    const w = m[1] ?? m[2] ?? m[3]!;
    if (m[3] !== undefined && /^(>|>>|\||&&|;|#)/.test(w)) break;
    out.push(w);
  }
  return out;
}

/**
 * Each printed `agent-readiness scan …` command in a text, whole: lines continued with a
 * backslash, or by YAML folding (`run: >` then indented `--flag` lines), are joined. `env` is
 * what the text sets for it just before (a workflow step's `AGENT_READINESS_API:`).
 */
function commands(text: string): Array<{ cmd: string; env: Record<string, string> }> {
  const found: Array<{ cmd: string; env: Record<string, string> }> = [];
  const joined = text.replace(/\\\n\s*/g, ' ').replace(/\n[ \t]+(?=--)/g, ' ');
  const re = /(?:npx (?:--yes )?)?agent-readiness scan (?:\\\n|[^\n`])*/g;
  for (const m of joined.matchAll(re)) {
    const before = joined.slice(Math.max(0, m.index - 300), m.index);
    const api = /AGENT_READINESS_API[:=]\s*(\S+)/.exec(before)?.[1];
    // An authenticated preview's headers, set on the same line (`AGENT_READINESS_HEADERS="…" npx …`).
    const headers = /AGENT_READINESS_HEADERS=(?:"([^"]*)"|'([^']*)'|(\S+))\s*$/.exec(before);
    const env: Record<string, string> = { ...(api ? { AGENT_READINESS_API: api } : {}), ...(headers ? { AGENT_READINESS_HEADERS: headers[1] ?? headers[2] ?? headers[3]! } : {}) };
    found.push({ cmd: m[0].replace(/\s+$/, ''), env });
  }
  return found;
}

const STEP_ENV: Record<string, string> = { SITE: 'www.example.com', CONTACT_NAME: 'Web Team', CONTACT_EMAIL: 'web-team@example.com', AGENT_READINESS_API: BASE };

describe('every scan command we print is accepted as printed', () => {
  const docs = documentsFor(BASE);
  const sources: Record<string, string> = {
    // The text a person reads: tags end a line, entities decoded.
    'home page (HTML)': decodeHTML(renderHome({ baseUrl: BASE }, {}, undefined).replace(/<[^>]*>/g, '\n')),
    'home page (Markdown)': renderHomeMarkdown({ baseUrl: BASE }),
    README: fs.readFileSync(path.join(root, 'README.md'), 'utf8'),
    'packages/cli/README.md': fs.readFileSync(path.join(root, 'packages/cli/README.md'), 'utf8'),
    '/methodology.md': docs.methodology,
    '/llms.txt': docs.llmsTxt,
    '/agents.md': docs.agents,
  };

  test('the home page, the README, the documents and the CLI package README', () => {
    const seen: string[] = [];
    for (const [where, text] of Object.entries(sources)) {
      for (const { cmd, env } of commands(text)) {
        // Syntax lines (`scan <target> … [options]`) are the help's grammar, not commands.
        if (/<target>|\[options\]|<port>/.test(cmd)) continue;
        const argv = words(cmd.replace(/\$(\w+)|\$\{(\w+)\}/g, (_m, a: string | undefined, b: string | undefined) => STEP_ENV[a ?? b ?? ''] ?? _m)).filter((w) => w !== 'npx' && w !== '--yes');
        assert.equal(argv[0], 'agent-readiness', `${where}: ${cmd}`);
        const parsed = parseCli(argv.slice(1), env);
        assert.equal(parsed.kind, 'scan', `${where} prints a command the CLI refuses: ${cmd}\n${JSON.stringify(parsed)}`);
        seen.push(`${where}: ${cmd}`);
      }
    }
    for (const where of ['home page (HTML)', 'home page (Markdown)', 'README', '/methodology.md', '/llms.txt']) {
      assert.ok(seen.some((s) => s.startsWith(`${where}:`)), `${where} prints a scan command`);
    }
  });

  test('the home page names this service\'s API in the command it prints', () => {
    for (const where of ['home page (HTML)', 'home page (Markdown)']) {
      const [{ cmd } = { cmd: '' }] = commands(sources[where]!);
      assert.ok(cmd?.includes(`--api ${BASE}`), `${where}: ${cmd}`);
    }
  });

  test('the example in the CLI\'s missing-domain message is a valid command once an API is known (--api, AGENT_READINESS_API or a packaged default)', () => {
    const missing = parseCli(['scan'], {});
    const example = /e\.g\. (agent-readiness scan .*)$/.exec(missing.kind === 'usage-error' ? missing.message : '')?.[1];
    assert.ok(example, 'the missing-domain message gives an example');
    assert.equal(parseCli([...words(example).slice(1), '--api', BASE], {}).kind, 'scan', example);
    assert.match(USAGE, /agent-readiness scan localhost:<port>/);
  });
});
