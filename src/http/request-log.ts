// One log line per request, as pino-http wrote it (same fields, levels and messages:
// req {id, method, url without the query}, res {statusCode}, responseTime, "request
// completed", or "request errored" with err at error level for a 5xx or a failed response),
// and the request id: a well-formed X-Request-Id is kept, else a new UUID, echoed in the
// response. Written by hand because pino-http built a child logger per request (serialising
// the request into its bindings) and wrapped every response in listeners of its own, a tenth
// of a cached read's CPU in the profile (bench/results.md); no handler used req.log.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (X-Request-Id), set by the request log before anything else runs. */
    id: string;
  }
}

const GIVEN_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestLog(log: Logger): RequestHandler {
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
      const line = { req: { id, method, url: url.split('?')[0] }, res: { statusCode }, responseTime: Date.now() - startedAt };
      if (failed) log.error({ ...line, err: err instanceof Error ? err : new Error(`failed with status code ${statusCode}`) }, 'request errored');
      else log.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    res.on('error', done);
    next();
  };
}
