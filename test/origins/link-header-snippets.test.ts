// The origin snippets for the home page's Link header (data/platforms/origins.ts), proven on the
// real servers like the Markdown ones: a world site without a machine-readable link fails
// discovery.link-headers on the plain server and the report names the server's own snippet; with
// exactly that snippet loaded, the home page carries the Link header and the check passes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APACHE_LINK, CADDY_LINK, NGINX_LINK, type OriginSnippet } from '../../src/scanner/data/platforms/index.ts';
import { htmlPage, SITEMAP } from '../world/site.ts';
import { assertPlainFix, scanOf } from './plain-fix.ts';
import { missing, startServer, type ServerKind } from './servers.ts';

const SNIPPETS: Record<ServerKind, OriginSnippet> = { nginx: NGINX_LINK, apache: APACHE_LINK, caddy: CADDY_LINK };
const CHECK = 'discovery.link-headers';

let site: string;
before(() => {
  // The world's default page (no <link> to a machine-readable resource) and the files the header names.
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'origin-link-site-'));
  fs.chmodSync(site, 0o755);
  fs.writeFileSync(path.join(site, 'index.html'), htmlPage(), { mode: 0o644 });
  fs.writeFileSync(path.join(site, 'sitemap.xml'), SITEMAP.replaceAll('{domain}', '127.0.0.1'), { mode: 0o644 });
  fs.writeFileSync(path.join(site, 'llms.txt'), '# Site\n\n> A test site.\n', { mode: 0o644 });
});
after(() => { fs.rmSync(site, { recursive: true, force: true }); });

for (const kind of ['nginx', 'apache', 'caddy'] as const) {
  const skip = missing(kind);
  if (skip) console.warn(`SKIPPING the ${kind} Link header snippet test: ${skip}`);
  describe(`the ${kind} snippet for the home page's Link header`, { skip }, () => {
    test(`The ${kind} Link header snippet, loaded into ${kind}, makes discovery.link-headers pass`, async () => {
      await assertPlainFix(kind, site, CHECK, SNIPPETS[kind]);

      const patched = await startServer(kind, site, SNIPPETS[kind].parts);
      try {
        const home = await fetch(`http://127.0.0.1:${patched.port}/`);
        assert.equal(home.headers.get('link'), '</sitemap.xml>; rel="sitemap", </llms.txt>; rel="llms-txt"', 'the header as written, quotes intact');
        const other = await fetch(`http://127.0.0.1:${patched.port}/llms.txt`);
        assert.equal(other.headers.get('link'), null, 'only the home page carries it');
        const { report } = await scanOf(patched.port);
        const check = report.checks.find((c) => c.id === CHECK)!;
        assert.equal(check.status, 'pass', `${kind} with the snippet: ${check.detail}`);
        assert.match(check.detail ?? '', /sitemap/);
      } finally {
        await patched.stop();
      }
    });
  });
}
