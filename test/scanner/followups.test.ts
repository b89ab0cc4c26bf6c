// Round two is a pure, deterministic plan from round one's evidence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planFollowups } from '../../src/scanner/followups.ts';
import { evidence, DOMAIN } from './fixtures.ts';
import { htmlPage } from '../world/site.ts';

const U = `https://${DOMAIN}`;
const txt = (body: string) => ({ body, headers: { 'content-type': 'text/plain' } });

test('followups: nothing to follow on a plain site (sitemap and canonical already fetched)', () => {
  assert.deepEqual(planFollowups(evidence()), []);
});

test('followups: sitemap named by robots.txt, up to 10 sorted same-site llms.txt links with .md twins of the first five, canonical, service-desc and licence, in that order', () => {
  const links = ['z', 'b', 'a', 'c', 'd', 'e', 'f'].map((p) => `- [${p}](${U}/${p})`).join('\n');
  const ev = evidence({
    robots: txt(`User-agent: *\nAllow: /\nSitemap: https://cdn.elsewhere-fixtures.com/map.xml\nLicense: /license.xml\n`),
    files: { '/llms.txt': txt(`# Docs\n\n${links}\n- [off-site](https://other-fixtures.com/x)\n- [notes](${U}/notes.md)\n`) },
    home: { body: htmlPage({ canonical: `${U}/home` }).replaceAll('{domain}', DOMAIN), headers: { link: `<${U}/api/spec.json>; rel="service-desc"` } },
  });
  assert.deepEqual(planFollowups(ev), [
    ['sitemap:robots', 'https://cdn.elsewhere-fixtures.com/map.xml'],
    [`llms-link:${U}/a`, `${U}/a`], [`llms-link:${U}/b`, `${U}/b`], [`llms-link:${U}/c`, `${U}/c`], [`llms-link:${U}/d`, `${U}/d`], [`llms-link:${U}/e`, `${U}/e`],
    [`llms-link:${U}/f`, `${U}/f`], [`llms-link:${U}/notes.md`, `${U}/notes.md`], [`llms-link:${U}/z`, `${U}/z`],
    [`md-variant:${U}/a`, `${U}/a.md`], [`md-variant:${U}/b`, `${U}/b.md`], [`md-variant:${U}/c`, `${U}/c.md`],
    ['canonical', `${U}/home`],
    [`service-desc:${U}/api/spec.json`, `${U}/api/spec.json`],
    ['license', `${U}/license.xml`],
  ]);
});
