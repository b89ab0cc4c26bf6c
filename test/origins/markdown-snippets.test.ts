// The origin snippets of the platform table are proven on the real servers (Debian's nginx,
// apache2 and caddy): each serves a world site's files, first plainly, where the scanner's
// content.markdown-negotiation fails and the report's fix names that server's snippet; then with
// exactly that snippet loaded, where the same check (and the next rubric's per-agent revision)
// passes. The scan is the CLI's local mode: the whole engine against 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APACHE_MARKDOWN, CADDY_MARKDOWN, NGINX_MARKDOWN, type OriginSnippet } from '../../src/scanner/data/platforms/index.ts';
import { SCENARIOS } from '../world/scenarios/index.ts';
import { assertPlainFix, scanOf } from './plain-fix.ts';
import { missing, startServer, type ServerKind } from './servers.ts';

const SNIPPETS: Record<ServerKind, OriginSnippet> = { nginx: NGINX_MARKDOWN, apache: APACHE_MARKDOWN, caddy: CADDY_MARKDOWN };
const CHECK = 'content.markdown-negotiation';

let site: string;
before(() => {
  // The world's markdown-by-accept site: its page (with the Markdown alternate link) and its Markdown twin.
  const s = SCENARIOS.find((x) => x.name === 'markdown-by-accept')!;
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'origin-site-'));
  fs.chmodSync(site, 0o755);
  fs.writeFileSync(path.join(site, 'index.html'), s.home!.replaceAll('{domain}', '127.0.0.1'), { mode: 0o644 });
  fs.writeFileSync(path.join(site, 'index.md'), s.markdown!.body, { mode: 0o644 });
});
after(() => { fs.rmSync(site, { recursive: true, force: true }); });

for (const kind of ['nginx', 'apache', 'caddy'] as const) {
  const skip = missing(kind);
  if (skip) console.warn(`SKIPPING the ${kind} snippet test: ${skip}`);
  describe(`the ${kind} snippet for Markdown negotiation`, { skip }, () => {
    test(`The ${kind} snippet for Markdown negotiation, loaded into ${kind}, makes the world check pass`, async () => {
      await assertPlainFix(kind, site, CHECK, SNIPPETS[kind]);

      const patched = await startServer(kind, site, SNIPPETS[kind].parts);
      try {
        const { report } = await scanOf(patched.port);
        const check = report.checks.find((c) => c.id === CHECK)!;
        assert.equal(check.status, 'pass', `${kind} with the snippet: ${check.detail}`);
        assert.equal(check.credit, undefined, 'full credit: text/markdown with Vary: Accept');
        const perAgent = report.preview?.checks.find((c) => c.id === CHECK);
        assert.equal(perAgent?.status, 'pass', `the per-agent revision too: ${perAgent?.detail}`);
        assert.equal(report.platformFixes?.some((f) => f.checkId === CHECK), false, 'nothing left to fix');
      } finally {
        await patched.stop();
      }
    });
  });
}
