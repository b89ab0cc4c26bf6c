// Slow and oversized requests against a real service process (src/main.js, its own server
// timeouts): a declared-too-large body is refused before it is sent, an endless chunked
// body is cut off at the wire limit, and slowloris connections (headers or body dribbled
// byte by byte) neither starve other clients nor stay open forever.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnService, type Child } from '../../bench/lib/child.ts';
import { conforms } from '../helpers/contract.ts';
import { rawRequest } from './lib/raw-http.ts';

/** Opens a socket and writes `head`; resolves with what the server sent before closing, and when. */
function dribble(port: number, head: string, then: { everyMs: number; chunk: string }): { closed: Promise<{ ms: number; answer: string }>; socket: net.Socket } {
  const socket = net.connect(port, '127.0.0.1');
  const started = performance.now();
  let answer = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    socket.write(head);
    timer = setInterval(() => socket.writable && socket.write(then.chunk), then.everyMs);
  });
  socket.on('data', (d) => {
    answer += d.toString();
  });
  const closed = new Promise<{ ms: number; answer: string }>((resolve) => {
    const done = () => {
      clearInterval(timer);
      resolve({ ms: performance.now() - started, answer });
    };
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
  return { closed, socket };
}

describe('hostile framing: slow and oversized request bodies against the real server', () => {
  let dir: string;
  let service: Child;
  let port = 0;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'slow-bodies-'));
    // The smallest scan deadline, so the server's request timeout (deadline + 15 s) is short.
    service = await spawnService({ DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, MAIL_DIR: path.join(dir, 'mail'), LOG_LEVEL: 'silent', SCAN_DEADLINE_MS: '1000' });
    port = Number(new URL(service.url).port);
  });

  after(async () => {
    await service?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('a body declared larger than the limit (Content-Length 10 MB) is refused with 413 before it is sent', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('connect', () => socket.write('POST /scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n{"domain":'));
      socket.on('data', (d) => {
        text += d.toString();
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('close', () => resolve(text));
    });
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 413 /);
  });

  for (const [method, urlPath, limit] of [['POST', '/scan', 16384], ['POST', '/mcp', 131072], ['POST', '/scan-mcp', 32768]] as const) {
    test(`an endless chunked body to ${method} ${urlPath} is cut off with 413 at its ${limit}-byte wire limit`, async () => {
      const socket = net.connect(port, '127.0.0.1');
      let sent = 0;
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        const chunk = `${(64 * 1024).toString(16)}\r\n${'a'.repeat(64 * 1024)}\r\n`;
        const pump = () => {
          while (socket.writable && sent < 50 * 1024 * 1024 && !text) {
            sent += 64 * 1024;
            if (!socket.write(chunk)) return void socket.once('drain', pump);
          }
        };
        socket.on('connect', () => {
          socket.write(`${method} ${urlPath} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
          pump();
        });
        socket.on('data', (d) => {
          text += d.toString();
          if (text.includes('\r\n\r\n')) resolve(text);
        });
        socket.on('error', () => resolve(text));
        socket.on('close', () => resolve(text));
      });
      socket.destroy();
      assert.match(answer, /^HTTP\/1\.1 413 /, answer.slice(0, 200));
      assert.ok(sent < 50 * 1024 * 1024, `the server read all ${sent} bytes before answering`);
    });
  }

  test('a compressed body is refused (no decompression bomb is ever inflated)', async () => {
    const res = await rawRequest(service.url, { method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]) });
    conforms(res);
    assert.equal(res.status, 415);
  });

  test('slowloris: 50 connections dribbling headers and 10 dribbling a body do not starve other clients, and are closed by the server', { timeout: 120_000 }, async () => {
    const headers = Array.from({ length: 50 }, () => dribble(port, 'GET /health HTTP/1.1\r\nHost: x\r\n', { everyMs: 1000, chunk: 'X-a: b\r\n' }));
    const bodies = Array.from({ length: 10 }, () =>
      dribble(port, 'POST /scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{', { everyMs: 1000, chunk: ' ' }));
    try {
      // Other clients are still served at once.
      for (let i = 0; i < 5; i++) {
        // A ceiling, not a speed claim: the dribbling connections would hold a blocked server for
        // headersTimeout (20 s), so an answer within 10 s shows it is not blocked, even under load.
        const res = await rawRequest(service.url, { method: 'GET', path: '/health', timeoutMs: 10_000 });
        conforms(res);
        assert.equal(res.status, 200);
        await new Promise((r) => setTimeout(r, 200));
      }
      // The server ends them: headersTimeout (20 s) and requestTimeout (deadline + 15 s), checked
      // by Node every 30 s at most.
      const ended = await Promise.all([...headers, ...bodies].map((d) => d.closed));
      for (const e of ended) assert.ok(e.ms < 80_000, `a slow connection stayed open ${Math.round(e.ms)} ms`);
      const answered = ended.filter((e) => /^HTTP\/1\.1 (408|400|413)/.test(e.answer)).length;
      assert.ok(answered + ended.filter((e) => e.answer === '').length === ended.length, 'a slow connection got an unexpected answer');
    } finally {
      for (const d of [...headers, ...bodies]) d.socket.destroy();
    }
  });
});
