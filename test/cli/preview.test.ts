// Protected previews from CI: the real CLI scans a preview deployment behind Vercel-style
// Deployment Protection with --header (or AGENT_READINESS_HEADERS), through the world's user
// proxy. The world's own request log shows the header reached the preview origin on every
// request and no other host (a sitemap host, a redirect target off the origin), and the API
// was never contacted; every output format says "authenticated preview" and none repeats the
// secret; the preview deployment (x-robots-tag: noindex on *.vercel.app) is flagged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, type World } from '../world/index.ts';
import { serveScenario, type Scenario } from '../world/site.ts';
import { buildCli, runCli, startFixedApi } from './harness.ts';

const PREVIEW_HOST = 'shop-git-feature-ada.vercel.app';
const SECRET = 's3cr3t-bypass-4f1d0c';
const HEADER = 'x-vercel-protection-bypass';

/** A preview deployment: 401 without the bypass header (Deployment Protection), noindex with it. */
const PREVIEW: Scenario = {
  name: 'preview-protected',
  about: 'A Vercel preview behind Deployment Protection, with a sitemap on another host and llms.txt redirected off the origin.',
  presence: { server: 'Vercel', 'x-vercel-id': 'fra1::preview' },
  homeHeaders: { 'x-robots-tag': 'noindex' },
  robots: `User-agent: *\nAllow: /\n\nSitemap: https://sitemaps.world-fixtures.com/${PREVIEW_HOST}.xml\n`,
  files: { '/llms.txt': { status: 302, headers: { location: 'https://elsewhere.world-fixtures.com/llms.txt' }, body: '' } },
  edge: [{ who: 'all', lacks: [HEADER], respond: { status: 401, headers: { 'content-type': 'text/html', 'www-authenticate': 'Bearer' }, body: '<title>Authentication Required</title>' } }],
  expect: { headline: 'open' },
};

describe('agent-readiness scan --header: an authenticated preview', () => {
  let cli: ReturnType<typeof buildCli>;
  let world: World;
  let api: Awaited<ReturnType<typeof startFixedApi>>;
  let env: Record<string, string>;

  before(async () => {
    cli = buildCli();
    world = await startWorld({
      scenarios: [], logRequests: true, extraResolve: '*.vercel.app=11.22.33.10',
      handlers: { [PREVIEW_HOST]: (req, res, { domain }) => serveScenario(PREVIEW, domain, req, res) },
    });
    // Any contact with our API would show here; the preview mode must make none.
    api = await startFixedApi(500, { error: 'the API must not be contacted' });
    env = { AGENT_READINESS_API: api.url, HTTPS_PROXY: world.proxies.user, NODE_EXTRA_CA_CERTS: world.caPath };
  });
  after(async () => {
    await api?.close();
    await world?.stop();
    cli?.cleanup();
  });

  const sentSecret = (r: { rawHeaders: string[] }) => r.rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase() === HEADER && r.rawHeaders[i + 1] === SECRET);

  test('--header reaches the preview origin on every request and no other host; the output says "authenticated preview" and never the secret', async () => {
    const before = world.requests.length;
    const run = await runCli(cli.cli, ['scan', PREVIEW_HOST, '--header', `${HEADER}: ${SECRET}`], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /authenticated preview/i);
    assert.match(run.stdout, new RegExp(`${HEADER} sent only to https://${PREVIEW_HOST.replaceAll('.', '\\.')} \\(values not shown\\)`));
    assert.match(run.stdout, /Headline: open/, 'the bypass header let every probe through Deployment Protection');
    assert.match(run.stdout, /preview deployment/);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(SECRET), 'the secret is never echoed');

    const requests = world.requests.slice(before);
    const origin = requests.filter((r) => r.host === PREVIEW_HOST);
    const others = requests.filter((r) => r.host !== PREVIEW_HOST);
    assert.ok(origin.length > 30, `the scan reached the preview (${origin.length} requests)`);
    assert.ok(origin.every(sentSecret), 'every request to the scanned origin carried the header');
    assert.deepEqual([...new Set(others.map((r) => r.host))].sort(), ['elsewhere.world-fixtures.com', 'sitemaps.world-fixtures.com'], 'the sitemap host and the redirect target were asked too');
    assert.ok(others.every((r) => !r.rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase() === HEADER)), 'no other host ever saw the header, not even a redirect target off the origin');
    assert.deepEqual(api.hits, [], 'our API was never contacted');
  });

  test('from AGENT_READINESS_HEADERS (a secret out of argv): json, markdown and junit each say "authenticated preview" and flag the preview deployment', async () => {
    for (const format of ['json', 'markdown', 'junit'] as const) {
      const run = await runCli(cli.cli, ['scan', PREVIEW_HOST, '--format', format, '--min-score', '10'], { ...env, AGENT_READINESS_HEADERS: `${HEADER}: ${SECRET}\n` });
      assert.equal(run.code, 0, `${format}: ${run.stderr}`);
      assert.match(run.stdout, /authenticated preview/i, format);
      assert.match(run.stdout, /preview deployment/, format);
      assert.doesNotMatch(run.stdout + run.stderr, new RegExp(SECRET), `${format}: the secret is never echoed`);
      assert.match(run.stderr, /--min-score was judged on a preview deployment/, `${format}: the gate warns`);
      if (format === 'json') {
        const doc = JSON.parse(run.stdout) as { cli: { mode: string }; authenticatedPreview: { origin: string; headers: string[] }; previewDeployment: string | null };
        assert.equal(doc.cli.mode, 'preview');
        assert.deepEqual(doc.authenticatedPreview, { origin: `https://${PREVIEW_HOST}`, headers: [HEADER] });
        assert.match(doc.previewDeployment ?? '', /X-Robots-Tag: noindex/);
      }
    }
    assert.deepEqual(api.hits, []);
  });

  test('a malformed header is a usage error (exit 2) that names where it came from but never its value', async () => {
    const run = await runCli(cli.cli, ['scan', PREVIEW_HOST], { ...env, AGENT_READINESS_HEADERS: `Host: ${SECRET}` });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /AGENT_READINESS_HEADERS line 1: Host is set by the HTTP client/);
    assert.doesNotMatch(run.stderr, new RegExp(SECRET));
  });
});
