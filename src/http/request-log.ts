// One log line per request, as pino-http wrote it (same fields, levels and messages:
// req {id, method, url without the query}, res {statusCode}, responseTime, "request
// completed", or "request errored" with err at error level for a 5xx or a failed response),
// and the request id: a well-formed X-Request-Id is kept, else a new UUID, echoed in the
// response. Written by hand because pino-http built a child logger per request (serialising
// the request into its bindings) and wrapped every response in listeners of its own, a tenth
// of a cached read's CPU in the profile (bench/results.md); no handler used req.log.
//
// The "request completed" line, one per request, is also serialised by hand when the logger
// is a plain one (completedLineWriter below): pino's generic serialiser walks the object,
// ≈ 2.8 µs a line against ≈ 0.6 µs for the template, a tenth of a cached read's own CPU.
// The bytes are the same: the writer is only used after pino has serialised probe lines to
// the very same bytes, and any line with a character JSON would escape goes through pino.
import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { RequestHandler } from 'express';
import { pino, type Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (X-Request-Id), set by the request log before anything else runs. */
    id: string;
  }
}

const GIVEN_ID = /^[A-Za-z0-9._-]{1,64}$/;
const COMPLETED = 'request completed';
const INFO = 30;

export function requestLog(log: Logger): RequestHandler {
  const writeCompleted = completedLineWriter(log);
  return (req, res, next) => {
    const startedAt = Date.now();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const method = req.method;
    const url = req.url;
    const done = (err?: unknown) => {
      res.off('finish', done);
      res.off('close', done);
      res.off('error', done);
      const statusCode = res.statusCode;
      const failed = err instanceof Error || statusCode >= 500;
      const level = failed ? 'error' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      const responseTime = Date.now() - startedAt;
      if (!failed && writeCompleted?.(id, method, path, statusCode, responseTime)) return;
      const line = { req: { id, method, url: path }, res: { statusCode }, responseTime };
      if (failed) log.error({ ...line, err: err instanceof Error ? err : new Error(`failed with status code ${statusCode}`) }, 'request errored');
      else log.info(line, COMPLETED);
    };
    res.on('finish', done);
    res.on('close', done);
    res.on('error', done);
    next();
  };
}

/** Printable ASCII without `"` and `\`: JSON writes these strings as they are. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

type CompletedWriter = (id: string, method: string, path: string, statusCode: number, responseTime: number) => boolean;

/**
 * Writes `log.info({ req: { id, method, url }, res: { statusCode }, responseTime }, 'request
 * completed')` as pino would, straight to the logger's stream, and returns true; returns false
 * (the caller then logs through pino) when a string would need escaping or something is
 * listening to pino's serialiser. Undefined when the logger is not a plain one: a mixin, a
 * logMethod or streamWrite hook, a message prefix, or a stream that wants pino's metadata
 * (multistream) all act in pino's write path, so such a logger always goes through pino; and
 * anything acting in its serialiser (serializers, redaction, formatters, a nested key, another
 * message key or line end) shows as a difference on the probe lines, checked once here.
 * Uses pino's documented integration symbols (pino.symbols).
 */
export function completedLineWriter(log: Logger): CompletedWriter | undefined {
  const S = pino.symbols;
  const l = log as unknown as Record<symbol, unknown>;
  const asJson = l[S.asJsonSym] as ((obj: object, msg: string, num: number, time: string) => string) | undefined;
  const time = l[S.timeSym] as (() => string) | undefined;
  const stream = l[S.streamSym] as { write?: (s: string) => unknown } & Record<symbol, unknown> | undefined;
  const chindings = l[S.chindingsSym];
  const head = (l[S.lsCacheSym] as Record<number, string> | undefined)?.[INFO];
  const hooks = l[S.hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  if (typeof asJson !== 'function' || typeof time !== 'function' || typeof stream?.write !== 'function' || typeof chindings !== 'string' || typeof head !== 'string') return undefined;
  const msgPrefixSym = (S as unknown as Record<string, symbol | undefined>).msgPrefixSym; // in pino.symbols, not in its types
  if (msgPrefixSym === undefined || l[msgPrefixSym] !== undefined) return undefined;
  if (l[S.mixinSym] || hooks?.logMethod || hooks?.streamWrite || stream[S.needsMetadataGsym] === true) return undefined;
  const line = (t: string, id: string, method: string, path: string, statusCode: number, responseTime: number) =>
    `${head}${t}${chindings},"req":{"id":"${id}","method":"${method}","url":"${path}"},"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"${COMPLETED}"}\n`;
  const probes: Array<[string, string, string, number, number]> = [
    ['8ed99c69-b1dc-44e0-9ac8-7ed10c00fee7', 'GET', '/health', 200, 0],
    ['a.b_c-D', 'HEAD', '/r/x/y.svg', 404, 1234],
    ['x', 'POST', '', 302, 17],
  ];
  for (const [id, method, path, statusCode, responseTime] of probes) {
    const t = ',"time":1795431482389';
    const want = asJson.call(log, { req: { id, method, url: path }, res: { statusCode }, responseTime }, COMPLETED, INFO, t);
    if (want !== line(t, id, method, path, statusCode, responseTime)) return undefined;
  }
  const traced = diagnostics.tracingChannel('pino_asJson');
  const write = stream.write.bind(stream);
  return (id, method, path, statusCode, responseTime) => {
    if (traced.hasSubscribers || !PLAIN.test(id) || !PLAIN.test(method) || !PLAIN.test(path)) return false;
    write(line(time.call(log), id, method, path, statusCode, responseTime));
    return true;
  };
}
