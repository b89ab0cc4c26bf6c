// The SSRF corpus against every layer that decides where a scan may connect:
//   - the guard (names and addresses),
//   - the egress, direct and through a forward proxy, with a canary listening on loopback
//     that must never be reached, and a proxy log that must only ever show the one public
//     address the test world plays,
//   - redirects from a public site into every internal form,
//   - a DNS answer that changes between the check and the connection (rebinding),
//   - POST /scan (the whole service: normalizer, guard, DNS pre-flight),
//   - POST /scan-mcp, the MCP scanner and the CLI's hosted calls once they exist (each
//     skipped loudly, naming what is missing, until then).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkHostName, checkResolved, isGlobalAddress } from '../../src/net/guard.ts';
import { createEgress, type Egress } from '../../src/net/egress.ts';
import { parseScanResolve } from '../../src/net/resolve.ts';
import { validateError } from '../../generated/validators.js';
import { McpTargetError, scanMcpServer } from '../../src/mcp-scan/index.ts';
import { connectApi } from '../../src/cli/api.ts';
import { conforms } from '../helpers/contract.ts';
import { startProxy, type WorldProxy } from '../world/proxy.ts';
import { hostileApp, type HostileApp } from './lib/hostile-app.ts';
import { rawRequest } from './lib/raw-http.ts';
import { LITERAL_HOSTS, MIXED_NAME, RESOLVED_NAMES, scanResolveSpec, urlFor } from './lib/ssrf-corpus.ts';

const PUBLIC_SITE = '11.22.33.44';
const lead = { name: 'Ssrf Tester', email: 'ssrf@hostile-fixtures.com' };
const REFUSED = new Set(['GUARD_REFUSED', 'BAD_URL']);

test('the SSRF corpus has at least 60 target forms', () => {
  const forms = LITERAL_HOSTS.length + RESOLVED_NAMES.length + 1;
  assert.ok(forms >= 60, `only ${forms} forms`);
});

describe('SSRF guard: names and addresses', () => {
  for (const [host, what] of LITERAL_HOSTS) {
    test(`guard refuses the host ${JSON.stringify(host)} (${what})`, () => {
      const verdict = checkHostName(host.replace(/^\[|\]$/g, ''));
      assert.equal(verdict.ok, false, `${host} passed the name check`);
    });
  }
  for (const [name, address, what] of RESOLVED_NAMES) {
    test(`guard refuses ${name} resolving to ${address} (${what})`, () => {
      assert.equal(isGlobalAddress(address), false, `${address} counted as global`);
      assert.equal(checkResolved(name, [address]).ok, false);
    });
  }
  test('guard refuses a name when any one of its answers is internal', () => {
    assert.equal(checkResolved(MIXED_NAME[0], [...MIXED_NAME[1]]).ok, false);
  });
  test('guard control: a public-looking name with a public answer passes (the corpus is not vacuous)', () => {
    assert.equal(checkResolved('public.hostile-fixtures.com', [PUBLIC_SITE]).ok, true);
    assert.equal(checkResolved('public6.hostile-fixtures.com', ['2606:4700::1']).ok, true);
  });
});

describe('SSRF egress: literals, resolved names, redirects and rebinding never reach an internal address', () => {
  let canary: http.Server;
  let canaryPort = 0;
  let canaryHits = 0;
  let site: http.Server;
  let proxy: WorldProxy;
  let direct: Egress;
  let viaProxy: Egress;
  let lookups: string[];
  let rebindAnswers: string[][];

  before(async () => {
    canary = http.createServer((_req, res) => {
      canaryHits++;
      res.end('canary');
    });
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    canaryPort = (canary.address() as AddressInfo).port;

    // The public site the world plays at 11.22.33.44: /to?u=URL redirects anywhere, /ok answers.
    site = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      // The Location goes out as raw UTF-8 bytes, as a hostile server would send it.
      if (u.pathname === '/to') res.writeHead(302, { Location: Buffer.from(u.searchParams.get('u') ?? '/', 'utf8').toString('latin1') }).end();
      else if (u.pathname === '/self') res.writeHead(302, { Location: 'http://rebind.hostile-fixtures.com/ok' }).end();
      else res.end('hello from the public site');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const sitePort = (site.address() as AddressInfo).port;
    proxy = await startProxy({ localAddress: '127.0.0.2', route: (host, port) => (host === PUBLIC_SITE && port === 80 ? { host: '127.0.0.1', port: sitePort } : null) });

    const resolve = parseScanResolve(`${scanResolveSpec()},public.hostile-fixtures.com=${PUBLIC_SITE}`);
    lookups = [];
    rebindAnswers = [];
    // Anything not in SCAN_RESOLVE: a DNS that answers public first, then loopback.
    const dnsLookup = async (host: string) => {
      lookups.push(host);
      const answer = rebindAnswers.shift() ?? ['127.0.0.1'];
      return answer;
    };
    direct = createEgress({ name: 'networkA', allowDirect: true, resolve });
    viaProxy = createEgress({ name: 'networkA', proxyUrl: proxy.url, resolve, dnsLookup });
  });

  after(async () => {
    await direct.close();
    await viaProxy.close();
    await proxy.close();
    for (const server of [site, canary]) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  const probe = (egress: Egress, url: string) => egress.fetch({ url, timeoutMs: 3000, maxBodyBytes: 4096, maxRedirects: 5 });

  test('egress control: the public site is reachable through the proxy (the refusals below are not a dead network)', async () => {
    const res = await probe(viaProxy, `http://public.hostile-fixtures.com/ok`);
    assert.ok(res.ok, JSON.stringify(res));
    assert.equal(res.body.toString(), 'hello from the public site');
  });

  for (const [host, what] of LITERAL_HOSTS) {
    test(`direct egress refuses http://${host}:<canary>/ (${what}) and never connects`, async () => {
      const before = canaryHits;
      const res = await probe(direct, urlFor('http', host, canaryPort));
      assert.equal(res.ok, false);
      assert.ok(!res.ok && REFUSED.has(res.errorCode), `${host}: ${JSON.stringify(res)}`);
      assert.equal(canaryHits, before, 'the canary on loopback was reached');
    });
  }

  for (const [name, address, what] of RESOLVED_NAMES) {
    test(`egress refuses ${name} (SCAN_RESOLVE -> ${address}, ${what}) directly and through the proxy`, async () => {
      const before = canaryHits;
      for (const egress of [direct, viaProxy]) {
        const res = await probe(egress, `http://${name}:${canaryPort}/`);
        assert.ok(!res.ok && res.errorCode === 'GUARD_REFUSED', `${name}: ${JSON.stringify(res)}`);
      }
      assert.equal(canaryHits, before);
    });
  }

  test('egress refuses a name with one public and one internal answer', async () => {
    const res = await probe(viaProxy, `http://${MIXED_NAME[0]}/`);
    assert.ok(!res.ok && res.errorCode === 'GUARD_REFUSED', JSON.stringify(res));
  });

  // CANARY stands for the canary's port, known only once it listens.
  const redirectTargets = [
    ...LITERAL_HOSTS.map(([host, what]) => [urlFor('http', host, 0).replace(':0/', ':CANARY/'), what] as const),
    ...RESOLVED_NAMES.map(([name, , what]) => [`http://${name}:CANARY/`, what] as const),
    [`https://169.254.169.254/latest/meta-data/`, 'metadata over https'],
    [`//127.0.0.1:CANARY/`, 'scheme-relative loopback'],
    [`http://user:pw@127.0.0.1:CANARY/`, 'loopback with credentials'],
    ['file:///etc/passwd', 'file scheme'],
    ['gopher://127.0.0.1:6379/_INFO', 'gopher scheme to Redis'],
    ['ftp://10.0.0.1/', 'ftp scheme'],
    ['data:text/html,hi', 'data scheme'],
  ] as const;

  for (const [target, what] of redirectTargets) {
    test(`a public site redirecting to ${target} (${what}) is refused at the hop`, async () => {
      const before = canaryHits;
      const location = target.replace('CANARY', String(canaryPort));
      const res = await probe(viaProxy, `http://public.hostile-fixtures.com/to?u=${encodeURIComponent(location)}`);
      assert.ok(!res.ok && REFUSED.has(res.errorCode), `${location}: ${JSON.stringify(res)}`);
      // One hop recorded, or none when the Location is not even a URL.
      assert.ok(res.redirects.length <= 1, res.redirects.join(' -> '));
      assert.equal(canaryHits, before);
      assert.ok(proxy.seen.every((s) => s.endsWith(`${PUBLIC_SITE}:80`)), `the proxy was asked for ${proxy.seen.join(', ')}`);
    });
  }

  test('DNS rebinding: the connection goes to the address that was checked, never to a later answer', async () => {
    lookups.length = 0;
    proxy.seen.length = 0;
    // First answer public (checked, connected), second answer loopback (a rebinding DNS).
    rebindAnswers.push([PUBLIC_SITE], ['127.0.0.1']);
    const first = await probe(viaProxy, 'http://rebind.hostile-fixtures.com/ok');
    assert.ok(first.ok, JSON.stringify(first));
    assert.equal(first.body.toString(), 'hello from the public site');
    assert.deepEqual(proxy.seen, [proxy.seen[0]]);
    assert.ok(proxy.seen[0]!.endsWith(`${PUBLIC_SITE}:80`), `the proxy was asked for ${proxy.seen[0]}`);
    // The same name, now answering loopback: refused before any connection.
    const second = await probe(viaProxy, 'http://rebind.hostile-fixtures.com/ok');
    assert.ok(!second.ok && second.errorCode === 'GUARD_REFUSED', JSON.stringify(second));
    assert.equal(proxy.seen.length, 1);
    assert.deepEqual(lookups, ['rebind.hostile-fixtures.com', 'rebind.hostile-fixtures.com']);
  });

  test('DNS rebinding across a redirect: the hop re-resolves, gets loopback, and is refused', async () => {
    proxy.seen.length = 0;
    rebindAnswers.push([PUBLIC_SITE], ['127.0.0.1']);
    // /self on the public site redirects to the same name; the second lookup rebinds.
    const res = await probe(viaProxy, 'http://rebind.hostile-fixtures.com/self');
    assert.ok(!res.ok && res.errorCode === 'GUARD_REFUSED', JSON.stringify(res));
    assert.ok(proxy.seen.every((s) => s.endsWith(`${PUBLIC_SITE}:80`)), proxy.seen.join(', '));
    assert.equal(canaryHits, 0);
  });

  test('the canary on loopback was never reached by any egress test', () => {
    assert.equal(canaryHits, 0);
  });
});

describe('SSRF through POST /scan: every corpus form is a 400 and no scan starts', () => {
  let t: HostileApp;
  before(async () => {
    t = await hostileApp({ SCAN_RESOLVE: `${scanResolveSpec()},hostile-public.com=${PUBLIC_SITE}` }, { resolve: 'config' });
  });
  after(() => t.close());

  const post = (domain: string) =>
    rawRequest(t.url, { method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ domain, lead, fresh: true }) });

  const forms = [
    ...LITERAL_HOSTS.map(([h, what]) => [h, what] as const),
    ...LITERAL_HOSTS.slice(0, 12).map(([h, what]) => [`https://${h}:8443/admin?x=1`, `${what}, pasted as a URL`] as const),
    ...RESOLVED_NAMES.map(([n, , what]) => [n, `resolves to ${what}`] as const),
    ...RESOLVED_NAMES.slice(0, 5).map(([n, , what]) => [`https://www.${n}/path`, `resolves to ${what}, pasted with www and a path`] as const),
    [MIXED_NAME[0], 'one public and one internal answer'],
  ];
  for (const [domain, what] of forms) {
    test(`POST /scan refuses ${JSON.stringify(domain)} (${what}) with 400`, async () => {
      const scansBefore = t.scans.length;
      const res = await post(domain);
      conforms(res);
      assert.equal(res.status, 400, res.text);
      assert.ok(validateError(JSON.parse(res.text)));
      assert.equal(t.scans.length, scansBefore, 'the scanner was started');
    });
  }

  test('POST /scan control: a public-looking name with a public answer is scanned', async () => {
    const res = await rawRequest(t.url, {
      method: 'POST',
      path: '/scan',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'hostile-public.com', lead }),
    });
    conforms(res);
    assert.equal(res.status, 200, res.text);
  });
});

describe('SSRF through POST /scan-mcp, the MCP scanner and the CLI', () => {
  test(
    'POST /scan-mcp refuses every literal corpus form with 400 (or 422) and answers resolved ones within the contract',
    async () => {
      const t = await hostileApp({ SCAN_RESOLVE: scanResolveSpec() }, { resolve: 'config' });
      try {
        const literal = [
          ...LITERAL_HOSTS.map(([h]) => `https://${h}/mcp`),
          ...LITERAL_HOSTS.map(([h]) => h),
          'http://mcp.hostile-public.com/mcp',
          'https://mcp.hostile-public.com:8443/mcp',
        ];
        for (const target of literal) {
          const res = await rawRequest(t.url, { method: 'POST', path: '/scan-mcp', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ target, lead }) });
          conforms(res);
          assert.ok(res.status === 400 || res.status === 422, `${target}: ${res.status} ${res.text.slice(0, 200)}`);
        }
        // Names that resolve inside: refused before connecting (proved on the real egress by the
        // MCP-scanner test below); over HTTP the answer must at least be a declared one.
        for (const [name] of RESOLVED_NAMES) {
          const res = await rawRequest(t.url, { method: 'POST', path: '/scan-mcp', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ target: `https://${name}/mcp`, lead }), timeoutMs: 60_000 });
          conforms(res);
          assert.notEqual(res.status, 500, `${name}: ${res.text.slice(0, 200)}`);
        }
      } finally {
        await t.close();
      }
    },
  );

  test('the MCP scanner refuses every literal corpus form before any request (400)', async () => {
    const calls: string[] = [];
    const egress = { fetch: async (req: { url: string }) => { calls.push(req.url); throw new Error('must not be called'); } };
    for (const [host, what] of LITERAL_HOSTS) {
      for (const target of [`https://${host}/mcp`, host]) {
        await assert.rejects(scanMcpServer(target, { egress: egress as never }), (err: unknown) => err instanceof McpTargetError && err.status === 400, `${target} (${what})`);
      }
    }
    assert.deepEqual(calls, []);
  });

  test('the MCP scanner, on the real egress, never connects to a name resolving to an internal address', async () => {
    const proxy = await startProxy({ localAddress: '127.0.0.2', route: () => null });
    const egress = createEgress({ name: 'networkA', proxyUrl: proxy.url, resolve: parseScanResolve(scanResolveSpec()) });
    const codes = new Set<string>();
    const recording = { fetch: async (req: Parameters<Egress['fetch']>[0]) => { const r = await egress.fetch(req); codes.add(r.ok ? `ok ${r.status}` : r.errorCode); return r; } };
    try {
      for (const [name] of [...RESOLVED_NAMES, [MIXED_NAME[0]] as const]) {
        const report = await scanMcpServer(`https://${name}/mcp`, { egress: recording, timeoutMs: 2000, totalBudgetMs: 5000 });
        assert.ok(report, name);
      }
      assert.deepEqual([...codes], ['GUARD_REFUSED']);
      assert.deepEqual(proxy.seen, [], `the proxy was asked for ${proxy.seen.join(', ')}`);
    } finally {
      await egress.close();
      await proxy.close();
    }
  });

  test("the CLI's hosted call (POST /scan through src/cli/api.ts) gets a 400 for every corpus form", async () => {
    const t = await hostileApp({ SCAN_RESOLVE: scanResolveSpec() }, { resolve: 'config' });
    const api = connectApi(t.url, {}, '0.0.0-test');
    try {
      for (const domain of [...LITERAL_HOSTS.map(([h]) => h), ...RESOLVED_NAMES.map(([n]) => n), MIXED_NAME[0]]) {
        const answer = await api.scan({ domain, lead });
        assert.ok(!answer.ok && answer.status === 400, `${domain}: ${JSON.stringify(answer)}`);
      }
      assert.deepEqual(t.scans, []);
    } finally {
      await api.close();
      await t.close();
    }
  });
});
