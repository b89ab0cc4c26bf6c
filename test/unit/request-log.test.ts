// The request log: one line per request in pino-http's shape, and the hand-serialised
// "request completed" line byte for byte what pino itself writes, or pino writing it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { pino, type LoggerOptions } from 'pino';
import request from 'supertest';
import { completedLineWriter, requestLog } from '../../src/http/request-log.ts';

/** A logger like the service's (src/server.ts) writing into an array, with a fixed time. */
function capture(options: LoggerOptions = {}) {
  const lines: string[] = [];
  const log = pino({ level: 'info', base: { service: 'agent-readiness' }, timestamp: () => ',"time":42', ...options }, { write: (s: string) => { lines.push(s); } });
  return { log, lines };
}

function app(log: ReturnType<typeof capture>['log']) {
  const a = express();
  a.use(requestLog(log));
  a.get('/ok', (_req, res) => { res.json({ ok: true }); });
  a.get('/boom', (_req, res) => { res.status(503).end(); });
  return a;
}

const inputs: Array<[string, string, string, number, number]> = [
  ['8ed99c69-b1dc-44e0-9ac8-7ed10c00fee7', 'GET', '/health', 200, 3],
  ['given.id_1-A', 'HEAD', '/badge/example.com.svg', 404, 0],
  ['x', 'OPTIONS', '/', 204, 12345],
];

describe('request log', () => {
  test('the hand-written "request completed" line is byte for byte what pino writes', () => {
    // The service's logger, and options that change only what the writer takes from pino
    // (the level's rendering, the bindings, the time).
    const alike: LoggerOptions[] = [{}, { formatters: { level: (label: string) => ({ level: label }) } }, { base: undefined }, { base: { service: 'x', region: 'eu "west"' } }];
    for (const options of alike) {
      const fast = capture(options);
      const slow = capture(options);
      const write = completedLineWriter(fast.log);
      assert.ok(write, `a plain logger gets the hand-written line: ${JSON.stringify(options)}`);
      for (const [id, method, url, statusCode, responseTime] of inputs) {
        assert.equal(write(id, method, url, statusCode, responseTime), true);
        slow.log.info({ req: { id, method, url }, res: { statusCode }, responseTime }, 'request completed');
      }
      assert.deepEqual(fast.lines, slow.lines);
    }
    const { log, lines } = capture();
    completedLineWriter(log)!(...inputs[0]!);
    assert.deepEqual(JSON.parse(lines[0]!), { level: 30, time: 42, service: 'agent-readiness', req: { id: inputs[0]![0], method: 'GET', url: '/health' }, res: { statusCode: 200 }, responseTime: 3, msg: 'request completed' });
  });

  test('a string JSON would escape is left to pino', () => {
    const { log, lines } = capture();
    const write = completedLineWriter(log)!;
    for (const url of ['/a"b', '/a\\b', '/caf\u00e9', '/tab\there']) assert.equal(write('x', 'GET', url, 200, 1), false);
    assert.deepEqual(lines, []);
  });

  test('a logger whose serialiser or write path differs always goes through pino', () => {
    const others: LoggerOptions[] = [
      { serializers: { req: (r: { id: string }) => ({ id: r.id }) } },
      { redact: ['req.id'] },
      { formatters: { log: (o: Record<string, unknown>) => ({ ...o, extra: 1 }) } },
      { messageKey: 'message' },
      { nestedKey: 'payload' },
      { crlf: true },
      { mixin: () => ({ extra: 1 }) },
      { msgPrefix: '[http] ' },
      { hooks: { logMethod(args, method) { method.apply(this, args); } } },
    ];
    for (const options of others) assert.equal(completedLineWriter(capture(options).log), undefined, JSON.stringify(Object.keys(options)));
  });

  test('over HTTP: the request id is echoed, the query left out, a 5xx logged as "request errored"', async () => {
    const { log, lines } = capture();
    const a = app(log);
    const res = await request(a).get('/ok?secret=1').set('X-Request-Id', 'given-id.1').expect(200);
    assert.equal(res.headers['x-request-id'], 'given-id.1');
    const fresh = await request(a).get('/ok').set('X-Request-Id', 'not a valid id!').expect(200);
    assert.match(String(fresh.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    await request(a).get('/boom').expect(503);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(parsed[0], { level: 30, time: 42, service: 'agent-readiness', req: { id: 'given-id.1', method: 'GET', url: '/ok' }, res: { statusCode: 200 }, responseTime: parsed[0]!.responseTime, msg: 'request completed' });
    assert.equal(typeof parsed[0]!.responseTime, 'number');
    assert.equal((parsed[1]!.req as { id: string }).id, fresh.headers['x-request-id']);
    assert.equal(parsed[2]!.level, 50);
    assert.equal(parsed[2]!.msg, 'request errored');
    assert.equal((parsed[2]!.err as { message: string }).message, 'failed with status code 503');
  });

  test('over HTTP with a logger that redacts: the line goes through pino and is redacted', async () => {
    const { log, lines } = capture({ redact: ['req.id'] });
    await request(app(log)).get('/ok').set('X-Request-Id', 'given-id.2').expect(200);
    assert.equal(lines.length, 1);
    assert.equal((JSON.parse(lines[0]!) as { req: { id: string } }).req.id, '[Redacted]');
  });

  test('nothing is written below the logger level', async () => {
    const { log, lines } = capture({ level: 'warn' });
    await request(app(log)).get('/ok').expect(200);
    assert.deepEqual(lines, []);
  });
});
