// `agent-readiness changes`: the real CLI bundle against the real service (in this process,
// listening, SQLite) whose change feed holds events recorded through its own ChangeFeed, as a
// watch run records them. The CLI prints every event, then the next cursor; run again with it,
// it prints only newer ones; a refused key and a cursor past retention exit 2 and say why.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseChanges } from '../../src/cli/changes-args.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { buildCli, runCli } from './harness.ts';

function event(domain: string, n: number) {
  const watchId = randomUUID();
  const side = (headline: string, score: number) => ({ scanId: randomUUID(), headline, score, reportUrl: `http://agent-readiness.test/r/${randomUUID()}` });
  return {
    id: `evt-${watchId}.${n}`, type: 'readiness.changed' as const, watchId, domain,
    from: side('open', 90), to: side('agent-hostile', 40),
    // A hostile site's text: the CLI must print it inert.
    changes: [{ kind: 'headline', text: 'The headline went from open to agent-hostile.\u202e\x1b[31m' }], diffUrl: 'http://agent-readiness.test/r/a/diff/b',
  };
}

describe('agent-readiness changes: options', () => {
  test('usage errors exit 1; the key may come from the environment', () => {
    for (const [argv, env, why] of [
      [['changes'], { AGENT_READINESS_API: 'http://api.test' }, /--key <key> or set AGENT_READINESS_KEY/],
      [['changes', '--key', 'k'], {}, /API address/],
      [['changes', '--key', 'k', '--api', 'http://a.test', '--since', 'a b'], {}, /--since takes a cursor/],
      [['changes', '--key', 'k', '--api', 'http://a.test', '--format', 'csv'], {}, /text, jsonl/],
      [['changes', 'extra', '--key', 'k', '--api', 'http://a.test'], {}, /unexpected argument "extra"/],
    ] as Array<[string[], Record<string, string>, RegExp]>) {
      const p = parseChanges(argv, env);
      assert.ok(p.kind === 'usage-error' && p.exit === 1 && why.test(p.message), `${argv.join(' ')}: ${JSON.stringify(p)}`);
    }
    const ok = parseChanges(['changes', '--since', 'Y2YxOjM'], { AGENT_READINESS_API: 'http://a.test', AGENT_READINESS_KEY: 'k' });
    assert.deepEqual(ok, { kind: 'changes', options: { api: 'http://a.test', key: 'k', format: 'text', since: 'Y2YxOjM' } });
  });
});

describe('agent-readiness changes against the service', () => {
  let cli: ReturnType<typeof buildCli>;
  let t: TestApp;
  let server: Server;
  let api = '';
  let key = '';
  let keyId = '';
  let offset = 0;
  before(async () => {
    cli = buildCli();
    t = await testApp({ LOG_LEVEL: 'silent' });
    t.ctx.now = () => new Date(Date.now() + offset);
    ({ key, keyId } = await t.services.keys.create('CLI feed', 100));
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((r) => server?.close(r));
    await t?.close();
    cli?.cleanup();
  });

  test('prints every event and the next cursor; with that cursor, only newer events', async () => {
    for (let i = 0; i < 3; i++) await t.services.changes.record(keyId, event(`site-${i}.feed-cli.com`, i + 1));
    const first = await runCli(cli.cli, ['changes', '--api', api], { AGENT_READINESS_KEY: key });
    assert.equal(first.code, 0, first.stderr);
    const lines = first.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[0]!, /^site-0\.feed-cli\.com: open \(90\) -> agent-hostile \(40\)\. The headline went from open to agent-hostile\. http:\/\/agent-readiness\.test\/r\/a\/diff\/b$/);
    assert.ok(!/[\u202e\x1b]/.test(first.stdout), 'control characters are not printed');
    const cursor = /^next cursor: ([A-Za-z0-9_-]+)$/.exec(lines[3]!)?.[1];
    assert.ok(cursor, lines[3]);

    const none = await runCli(cli.cli, ['changes', '--api', api, '--key', key, '--since', cursor]);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, `next cursor: ${cursor}\n`, 'nothing new: the same cursor');

    await t.services.changes.record(keyId, event('site-3.feed-cli.com', 4));
    const newer = await runCli(cli.cli, ['changes', '--api', api, '--key', key, '--since', cursor, '--format', 'jsonl']);
    assert.equal(newer.code, 0, newer.stderr);
    const rows = newer.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((r) => r.domain ?? 'cursor'), ['site-3.feed-cli.com', 'cursor']);
    assert.notEqual(rows[1].nextCursor, cursor);
  });

  test('exit 2: a refused key; a cursor older than the events kept', async () => {
    const refused = await runCli(cli.cli, ['changes', '--api', api, '--key', `ark_${'A'.repeat(43)}`]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /API key was refused \(unknown or revoked\).*HTTP 401/);
    const old = /next cursor: (\S+)/.exec((await runCli(cli.cli, ['changes', '--api', api, '--key', key])).stdout)![1]!;
    await t.services.changes.record(keyId, event('site-4.feed-cli.com', 5));
    offset = 40 * 86_400_000;
    await t.services.changes.prune();
    const gone = await runCli(cli.cli, ['changes', '--api', api, '--key', key, '--since', old]);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /older than the events the API keeps \(30 days\); run again without --since \(HTTP 410\)/);
  });
});
