// Prebuilt bodies go compressed to clients that ask (src/http/send.ts): a real report page is
// about 240 KB of HTML and every browser sends Accept-Encoding. The bytes on the wire are read
// raw (node's http, which decodes nothing) and decoded here with zlib.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { conforms } from '../helpers/contract.ts';
import { hostileApp, type HostileApp } from '../hostile/lib/hostile-app.ts';
import { rawRequest } from '../hostile/lib/raw-http.ts';
import { STYLESHEET_PATH } from '../../src/report/styles.ts';

interface Wire { status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }

function get(base: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<Wire> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(w: Wire): string {
  const coding = w.headers['content-encoding'];
  const raw = coding === 'br' ? brotliDecompressSync(w.bytes) : coding === 'gzip' ? gunzipSync(w.bytes) : w.bytes;
  return raw.toString('utf8');
}

const CHROMIUM = 'gzip, deflate, br, zstd';

describe('compressed reads', () => {
  let t: HostileApp;
  let reportPath: string;
  before(async () => {
    t = await hostileApp();
    const scan = await rawRequest(t.url, {
      method: 'POST', path: '/scan', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'compressed-page.com', lead: { name: 'Zip Tester', email: 'zip@compressed-page.com' } }),
    });
    conforms(scan);
    reportPath = `/r/${(JSON.parse(scan.text) as { scanId: string }).scanId}`;
  });
  after(() => t.close());

  test('compression: the report page, first view and cached, goes brotli to a browser and decodes to the very page sent uncompressed', async () => {
    const first = await get(t.url, reportPath, { accept: 'text/html', 'accept-encoding': CHROMIUM });
    const cached = await get(t.url, reportPath, { accept: 'text/html', 'accept-encoding': CHROMIUM });
    const plain = await get(t.url, reportPath, { accept: 'text/html' });
    for (const w of [first, cached]) {
      assert.equal(w.status, 200);
      assert.equal(w.headers['content-encoding'], 'br', 'br wins the tie, though the browser lists gzip first');
      assert.equal(Number(w.headers['content-length']), w.bytes.length);
      assert.match(String(w.headers.vary), /^Accept, Accept-Encoding$/);
      assert.ok(w.headers['content-security-policy'], 'the page headers stay');
    }
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /Accept-Encoding/, 'the plain form varies too, so no cache serves it to a browser that wants br');
    assert.equal(decoded(first), plain.bytes.toString('utf8'));
    assert.equal(decoded(cached), plain.bytes.toString('utf8'));
    assert.ok(first.bytes.length * 2 < plain.bytes.length, `${first.bytes.length} compressed bytes against ${plain.bytes.length}`);
  });

  test('compression: the client\'s preferences rule: gzip alone, br refused, nothing acceptable, or no header at all', async () => {
    const page = (await get(t.url, reportPath, { accept: 'text/html' })).bytes.toString('utf8');
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['br', 'br'],
      ['*', 'br'],
      ['identity', undefined],
      ['gzip;q=0, br;q=0', undefined],
      ['deflate', undefined],
      [undefined, undefined],
    ];
    for (const [acceptEncoding, want] of cases) {
      const w = await get(t.url, reportPath, { accept: 'text/html', ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) });
      assert.equal(w.headers['content-encoding'], want, `Accept-Encoding: ${acceptEncoding}`);
      assert.equal(decoded(w), page, `Accept-Encoding: ${acceptEncoding}`);
    }
  });

  test('compression: the home page, the contract, the documents, the check catalog and the stylesheet compress; /health, under a kilobyte, never does; HEAD gives the compressed length and no body', async () => {
    for (const path of ['/', '/openapi.json', '/methodology.md', '/privacy', '/api/checks', STYLESHEET_PATH]) {
      const plain = await get(t.url, path, {});
      const br = await get(t.url, path, { 'accept-encoding': CHROMIUM });
      assert.equal(br.status, 200, path);
      assert.equal(br.headers['content-encoding'], 'br', path);
      assert.equal(decoded(br), plain.bytes.toString('utf8'), path);
      const head = await get(t.url, path, { 'accept-encoding': CHROMIUM }, 'HEAD');
      assert.equal(head.headers['content-encoding'], 'br', path);
      assert.equal(Number(head.headers['content-length']), br.bytes.length, path);
      assert.equal(head.bytes.length, 0, path);
    }
    const health = await get(t.url, '/health', { 'accept-encoding': CHROMIUM });
    assert.equal(health.headers['content-encoding'], undefined);
    assert.doesNotMatch(String(health.headers.vary ?? ''), /Accept-Encoding/);
    assert.equal(JSON.parse(health.bytes.toString()).ok, true);
  });
});
