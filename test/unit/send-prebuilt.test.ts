// sendPrebuilt answers as res.send does for a Buffer, conditional requests included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import express, { type Request, type Response } from 'express';
import request from 'supertest';
import { sendPrebuilt } from '../../src/http/send.ts';

const BODY = Buffer.from('{"ok":true}');
const LAST_MODIFIED = 'Fri, 01 May 2026 12:00:00 GMT';

test('sendPrebuilt answers every request as res.send would (status, headers, body)', async () => {
  const app = express();
  app.set('etag', false); // as the service (src/app.ts)
  const prepare = (res: Response, withDate: boolean) => {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (withDate) res.setHeader('Last-Modified', LAST_MODIFIED);
  };
  for (const withDate of [false, true]) {
    app.get(`/fast/${withDate}`, (req: Request, res: Response) => { prepare(res, withDate); sendPrebuilt(req, res, BODY); });
    app.get(`/send/${withDate}`, (_req: Request, res: Response) => { prepare(res, withDate); res.send(BODY); });
  }
  const cases: Array<[string, Record<string, string>]> = [
    ['GET', {}], ['HEAD', {}],
    ['GET', { 'If-None-Match': '*' }], ['GET', { 'If-None-Match': '"abc"' }],
    ['GET', { 'If-Modified-Since': 'Sat, 02 May 2026 12:00:00 GMT' }], ['GET', { 'If-Modified-Since': 'Thu, 30 Apr 2026 12:00:00 GMT' }],
    ['GET', { 'If-Modified-Since': 'Sat, 02 May 2026 12:00:00 GMT', 'Cache-Control': 'no-cache' }],
  ];
  for (const withDate of [false, true]) {
    for (const [method, headers] of cases) {
      const go = async (path: string) => {
        const r = await (method === 'HEAD' ? request(app).head(path) : request(app).get(path)).set(headers).buffer(true).parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks).toString()));
        });
        const { date: _date, ...rest } = r.headers;
        return { status: r.status, headers: rest, body: r.body as string };
      };
      assert.deepEqual(await go(`/fast/${withDate}`), await go(`/send/${withDate}`), `${method} ${JSON.stringify(headers)} Last-Modified: ${withDate}`);
    }
  }
});
