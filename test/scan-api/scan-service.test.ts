import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../src/errors.ts';
import { findScan } from '../../src/storage/queries/findScan.ts';
import { listMail } from '../../src/storage/queries/mailOutbox.ts';
import { addExcludedDomain } from '../../src/storage/queries/excludedDomains.ts';
import { hashToken } from '../../src/scans/token.ts';
import { openTestDb, type TestDb } from '../storage/databases.ts';
import { domainHint } from '../../src/scans/preflight.ts';
import { buildService } from './build.ts';
import { cannedReport, fakeResolver, fakeScanner } from './fixtures.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@site-one.com' };
const ip = '198.51.100.7';

async function rejectsWith(p: Promise<unknown>, status: number, check?: (e: AppError) => void): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof AppError, `expected AppError, got ${String(e)}`);
    assert.equal(e.status, status, `${e.status} ${JSON.stringify(e.body)}`);
    check?.(e);
    return true;
  });
}

describe('scan service', () => {
  let t: TestDb;
  before(async () => { t = await openTestDb('sqlite'); });
  after(async () => { await t.close(); });

  test('a fresh scan is archived with reportUrl, a hashed upload token and one outbox mail', async () => {
    const scanner = fakeScanner();
    const svc = buildService({ db: t.db, scanner });
    const out = await svc.scan({ domain: 'https://www.Site-One.com/pricing', lead, clientIp: ip });
    assert.equal(out.body.domain, 'site-one.com');
    assert.equal(out.body.coalesced, false);
    assert.match(out.body.reportUrl!, /^http:\/\/localhost:8080\/r\/[0-9a-f-]{36}$/);
    assert.ok(out.body.cliUploadToken && out.body.cliUploadToken.length >= 40);
    assert.equal(out.body.outreachEligible, true, 'lead email is on the scanned domain');
    assert.deepEqual(out.headers, { 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2' });
    const row = await findScan(t.db, out.body.scanId);
    assert.equal(row?.upload_token_hash, hashToken(out.body.cliUploadToken!));
    assert.equal(row?.lead_email, 'ada@site-one.com');
    assert.ok(!row!.report.includes(out.body.cliUploadToken!), 'token never archived');
    assert.ok(!row!.report.includes('ada@site-one.com'), 'lead not in the archived payload');
    const stored = JSON.parse(row!.report);
    assert.equal(stored.coalesced, undefined);
    assert.equal(stored.reportUrl, undefined);
    const mails = await listMail(t.db, out.body.scanId);
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.to_addr, 'ada@site-one.com');
    assert.ok(mails[0]!.text_body.includes(out.body.reportUrl!));
  });

  test('a burst of 50 identical scan requests runs one upstream scan', async () => {
    const scanner = fakeScanner({ held: true });
    const svc = buildService({ db: t.db, scanner, perIp: { points: 5, durationS: 1800 } });
    const all = Array.from({ length: 50 }, () => svc.scan({ domain: 'burst-site.com', lead, clientIp: ip }));
    // Release once the one upstream scan has started (a condition, not a guess at how long the
    // burst takes to reach the scanner on a loaded machine).
    const until = Date.now() + 30_000;
    while (scanner.calls.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    scanner.release();
    const outs = await Promise.all(all);
    assert.equal(scanner.calls.length, 1);
    assert.equal(outs.filter((o) => o.body.coalesced === false).length, 1);
    assert.equal(outs.filter((o) => o.body.cliUploadToken).length, 1, 'only the scanning caller gets the token');
    assert.equal(new Set(outs.map((o) => o.body.scanId)).size, 1);
    for (const o of outs.filter((x) => x.body.coalesced)) assert.ok(o.body.ageMs! >= 0 && o.body.ageMs! < 45000);
  });

  test('a repeat inside the window is coalesced, uses no budget and carries ageMs', async () => {
    let clock = Date.parse('2026-03-01T10:00:00Z');
    const now = () => new Date(clock);
    const scanner = fakeScanner();
    const svc = buildService({ db: t.db, scanner, now });
    const first = await svc.scan({ domain: 'repeat-site.com', lead, clientIp: ip });
    clock += 10_000;
    const second = await svc.scan({ domain: 'repeat-site.com', lead, clientIp: ip });
    assert.equal(second.body.coalesced, true);
    assert.equal(second.body.ageMs, 10_000);
    assert.equal(second.body.cliUploadToken, undefined);
    assert.equal(second.body.scanId, first.body.scanId);
    assert.equal(second.headers['RateLimit-Remaining'], first.headers['RateLimit-Remaining']);
    assert.equal(scanner.calls.length, 1);
    clock += 36_000; // 46 s after the first: outside the window
    const third = await svc.scan({ domain: 'repeat-site.com', lead, clientIp: ip });
    assert.equal(third.body.coalesced, false);
    assert.equal(scanner.calls.length, 2);
  });

  test('fresh:true bypasses the coalescing window and a different profile is a different key', async () => {
    const scanner = fakeScanner();
    const svc = buildService({ db: t.db, scanner });
    await svc.scan({ domain: 'fresh-site.com', lead, clientIp: ip });
    const forced = await svc.scan({ domain: 'fresh-site.com', lead, clientIp: ip, fresh: true });
    assert.equal(forced.body.coalesced, false);
    assert.ok(forced.body.cliUploadToken);
    await svc.scan({ domain: 'fresh-site.com', lead, clientIp: ip, profile: 'docs' });
    assert.equal(scanner.calls.length, 3);
  });

  test('the per-domain limit allows a burst of 3 then answers 429 with retryAfterSeconds', async () => {
    const svc = buildService({ db: t.db, scanner: fakeScanner() });
    for (let i = 0; i < 3; i++) await svc.scan({ domain: 'limited-site.com', lead, clientIp: ip, fresh: true });
    await rejectsWith(svc.scan({ domain: 'limited-site.com', lead, clientIp: ip, fresh: true }), 429, (e) => {
      assert.ok(e.body.retryAfterSeconds! >= 1 && e.body.retryAfterSeconds! <= 60);
      assert.equal(e.headers['Retry-After'], String(e.body.retryAfterSeconds));
    });
  });

  test('the per-IP limit holds under concurrency and a refused domain returns the IP point', async () => {
    const scanner = fakeScanner();
    const svc = buildService({ db: t.db, scanner, perIp: { points: 5, durationS: 1800 } });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => svc.scan({ domain: `ip-site-${i}.com`, lead, clientIp: '203.0.113.9' })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
    assert.equal(scanner.calls.length, 5);
    for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as AppError).status, 429);
  });

  test('excluded domains (config, table and their subdomains) get 403', async () => {
    await addExcludedDomain(t.db, 'owner-optout.com', null, new Date().toISOString());
    const svc = buildService({ db: t.db, scanner: fakeScanner(), excluded: ['config-optout.com'] });
    await rejectsWith(svc.scan({ domain: 'config-optout.com', lead, clientIp: ip }), 403, (e) => assert.equal(e.body.domain, 'config-optout.com'));
    await rejectsWith(svc.scan({ domain: 'shop.owner-optout.com', lead, clientIp: ip }), 403);
  });

  test('domain guard and DNS pre-flight: IP, localhost, NXDOMAIN and non-global answers get 400', async () => {
    const scanner = fakeScanner();
    const svc = buildService({ db: t.db, scanner, resolve: fakeResolver({ 'typo-site.com': 'nxdomain', 'inside-site.com': ['10.0.0.5'], 'mixed-site.com': ['93.184.215.14', '127.0.0.1'] }) });
    for (const domain of ['127.0.0.1', 'http://0x7f000001/', 'localhost', 'printer.local', '', 'not a domain']) {
      await rejectsWith(svc.scan({ domain, lead, clientIp: ip }), 400);
    }
    await rejectsWith(svc.scan({ domain: 'typo-site.com', lead, clientIp: ip }), 400, (e) => assert.match(e.body.error, /does not resolve/));
    await rejectsWith(svc.scan({ domain: 'inside-site.com', lead, clientIp: ip }), 400, (e) => assert.match(e.body.error, /only to non-public/));
    await rejectsWith(svc.scan({ domain: 'mixed-site.com', lead, clientIp: ip }), 400);
    assert.equal(scanner.calls.length, 0);
  });

  test('a refused address of the caller\'s own machine points at the CLI\'s local scan; other refusals ask for a public domain', async () => {
    const svc = buildService({ db: t.db, scanner: fakeScanner() });
    for (const domain of ['localhost', 'localhost:3000', 'http://localhost:8080/app', 'LOCALHOST.', 'api.localhost', 'https://my-app.localhost:5173/', '127.0.0.1', '127.0.0.1:8000', '0.0.0.0:3000', '[::1]:8080', 'http://[::1]/']) {
      await rejectsWith(svc.scan({ domain, lead, clientIp: ip }), 400, (e) => assert.match(e.body.hint ?? '', /npx agent-readiness scan localhost:<port>/, domain));
    }
    for (const domain of ['printer.local', '10.0.0.5', 'not a domain', 'localhostile']) {
      await rejectsWith(svc.scan({ domain, lead, clientIp: ip }), 400, (e) => assert.equal(e.body.hint, 'Send a public website domain such as example.com.', domain));
    }
    for (const near of ['localhost-shop.com', 'mylocalhost.com', '1270.0.0.1', 'x.localhost.example.com']) assert.equal(domainHint(near), 'Send a public website domain such as example.com.', near);
  });

  test('missing or invalid lead details give 400 carrying required', async () => {
    const svc = buildService({ db: t.db, scanner: fakeScanner() });
    for (const bad of [undefined, {}, { name: 'A', email: 'a@b.com' }, { name: 'Ada', email: 'nope' }, { name: 'Ada', email: 'a@b.com', phone: '12-34' }, { name: 'Ada', email: 'a@b.com', role: 'x'.repeat(81) }]) {
      await rejectsWith(svc.scan({ domain: 'lead-site.com', lead: bad, clientIp: ip }), 400, (e) => assert.ok(e.body.required));
    }
    const ok = await svc.scan({ domain: 'lead-site.com', lead: { ...lead, phone: '+1 (555) 010-2030', role: null }, clientIp: ip });
    assert.equal(ok.body.coalesced, false);
  });

  test('ephemeral tunnel hosts are scanned but get no permalink, token or mail', async () => {
    const svc = buildService({ db: t.db, scanner: fakeScanner() });
    const out = await svc.scan({ domain: 'abc123.ngrok-free.app', lead, clientIp: ip });
    assert.equal(out.body.ephemeral, true);
    assert.match(out.body.ephemeralNote!, /not archived/);
    assert.equal(out.body.reportUrl, undefined);
    assert.equal(out.body.cliUploadToken, undefined);
    assert.equal(out.body.outreachEligible, false);
    assert.equal(await findScan(t.db, out.body.scanId), null);
  });

  test('a scan that cannot complete gives 502 with detail', async () => {
    const svc = buildService({ db: t.db, scanner: fakeScanner({ fail: 'both egress proxies refused the connection' }) });
    await rejectsWith(svc.scan({ domain: 'broken-site.com', lead, clientIp: ip }), 502, (e) => assert.match(e.body.detail!, /egress/));
  });

  test('an injected archive failure still answers 200 without reportUrl, token or mail', async () => {
    const f = await openTestDb('sqlite');
    try {
      await f.db.raw("CREATE TRIGGER refuse_scans BEFORE INSERT ON scans BEGIN SELECT RAISE(ABORT, 'injected archive fault'); END");
      const svc = buildService({ db: f.db, scanner: fakeScanner() });
      const out = await svc.scan({ domain: 'fault-site.com', lead, clientIp: ip });
      assert.equal(out.body.reportUrl, undefined);
      assert.equal(out.body.cliUploadToken, undefined);
      assert.equal(out.body.outreachEligible, false);
      assert.equal(out.body.headline, 'partially-blocked');
      assert.equal((await listMail(f.db)).length, 0);
    } finally {
      await f.close();
    }
  });

  test('outreachEligible is false for a lead on another domain and for unknown headlines', async () => {
    const svc = buildService({ db: t.db, scanner: fakeScanner({ make: (d) => cannedReport(d, { headline: 'unknown' }) }) });
    const a = await svc.scan({ domain: 'unknown-site.com', lead: { name: 'Ada', email: 'ada@unknown-site.com' }, clientIp: ip });
    assert.equal(a.body.outreachEligible, false);
    const svc2 = buildService({ db: t.db, scanner: fakeScanner() });
    const b = await svc2.scan({ domain: 'other-site.com', lead: { name: 'Ada', email: 'ada@gmail.com' }, clientIp: ip });
    assert.equal(b.body.outreachEligible, false);
    const c = await svc2.scan({ domain: 'sub-site.com', lead: { name: 'Ada', email: 'ada@mail.sub-site.com' }, clientIp: ip });
    assert.equal(c.body.outreachEligible, true);
  });

  describe('human-verification gate', () => {
    let server: http.Server;
    let url: string;
    before(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', () => {
          const form = new URLSearchParams(body);
          const success = form.get('secret') === 'ts-secret' && form.get('response') === 'good-token';
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ success }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    test('with TURNSTILE_SECRET set, a missing or invalid token gets 403 and a valid one scans', async () => {
      const svc = buildService({ db: t.db, scanner: fakeScanner(), turnstile: { secret: 'ts-secret', url } });
      await rejectsWith(svc.scan({ domain: 'gated-site.com', lead, clientIp: ip }), 403);
      await rejectsWith(svc.scan({ domain: 'gated-site.com', lead, clientIp: ip, turnstileToken: 'bad-token' }), 403);
      const ok = await svc.scan({ domain: 'gated-site.com', lead, clientIp: ip, turnstileToken: 'good-token' });
      assert.equal(ok.body.coalesced, false);
    });

    test('an unreachable verifier fails closed with 403', async () => {
      const svc = buildService({ db: t.db, scanner: fakeScanner(), turnstile: { secret: 'ts-secret', url: 'http://127.0.0.1:9/siteverify' } });
      await rejectsWith(svc.scan({ domain: 'gated2-site.com', lead, clientIp: ip, turnstileToken: 'good-token' }), 403);
    });
  });
});

describe('per-IP keys', () => {
  test('IPv6 clients are limited per /64 and IPv4-mapped addresses count as IPv4', async () => {
    const { ipKey } = await import('../../src/scans/limits.ts');
    assert.equal(ipKey('2001:db8:1:2:aaaa::1'), ipKey('2001:db8:1:2:ffff:1:2:3'));
    assert.notEqual(ipKey('2001:db8:1:2::1'), ipKey('2001:db8:1:3::1'));
    assert.equal(ipKey('::ffff:192.0.2.5'), '192.0.2.5');
    assert.equal(ipKey('192.0.2.5'), '192.0.2.5');
    assert.equal(ipKey('unknown'), 'unknown');
  });
});

describe('scan deadline', () => {
  test('an engine that never answers is cut off after the deadline with 502, and joined requests get it too', async () => {
    const t = await openTestDb('sqlite');
    try {
      const never = { calls: 0, scan: () => { never.calls++; return new Promise<never>(() => undefined); } };
      // The engine gets deadline + 5 s; -4900 cuts it off 100 ms after the start.
      const svc = buildService({ db: t.db, scanner: never, deadlineMs: -4900 });
      const results = await Promise.allSettled([1, 2, 3].map(() => svc.scan({ domain: 'hangs-site.com', lead, clientIp: ip })));
      for (const r of results) {
        assert.equal(r.status, 'rejected');
        assert.equal((r.reason as AppError).status, 502);
      }
      assert.equal(never.calls, 1);
    } finally {
      await t.close();
    }
  });
});
