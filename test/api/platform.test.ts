// The platform's own endpoints (issue 2) and the behaviour every endpoint shares: error
// bodies, validation, body limits on the wire, CORS.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { conforms } from '../helpers/contract.ts';
import { testApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(() => t.close());

describe('GET /health', () => {
  test('reports the service with the rubric and roster versions in force', async () => {
    const res = await request(t.app).get('/health').expect(200).expect(conforms);
    assert.deepEqual(res.body, { ok: true, service: 'agent-readiness', rubric: 'rubric-v1.2', roster: 'roster-v1.1', jobs: 'ok' });
  });

  test('ignores a cache-busting query parameter', async () => {
    await request(t.app).get('/health?t=123').expect(200).expect(conforms);
  });
});

describe('GET /scan', () => {
  const cases: Array<[string, string | undefined, string | null]> = [
    ['no domain gives a null key', undefined, null],
    ['a pasted URL is normalized into the key', 'HTTPS://WWW.Example.COM:443/pricing?x=1#top', 'site:example.com:auto'],
    ['an IDN is keyed by its punycode form', 'bücher.de.', 'site:xn--bcher-kva.de:auto'],
    ['an IP literal has no key', '0x7f.0.0.1', null],
    ['a single label has no key', 'intranet', null],
  ];
  for (const [name, domain, key] of cases) {
    test(`hint: ${name}`, async () => {
      const res = await request(t.app).get('/scan').query(domain === undefined ? {} : { domain }).expect(200).expect(conforms);
      assert.equal(res.body.coalesceKey, key);
      assert.match(res.body.hint, /POST \/scan/);
    });
  }

  test('rejects a misspelt query parameter with the Error shape', async () => {
    const res = await request(t.app).get('/scan?domian=example.com').expect(400).expect(conforms);
    assert.match(res.body.hint, /domian/);
  });

  test('rejects an over-long domain parameter', async () => {
    await request(t.app).get('/scan').query({ domain: 'a'.repeat(3000) }).expect(400).expect(conforms);
  });
});

describe('discovery documents', () => {
  for (const path of ['/openapi.json', '/.well-known/openapi.json', '/swagger.json']) {
    test(`${path} serves the bundled OpenAPI 3.1 document for this instance`, async () => {
      const res = await request(t.app).get(path).expect(200).expect(conforms);
      assert.equal(res.body.openapi, '3.1.0');
      assert.deepEqual(res.body.servers, [{ url: 'http://agent-readiness.test', description: 'This instance.' }]);
      assert.ok(res.body.paths['/scan'].post);
      assert.equal(res.headers['access-control-allow-origin'], '*');
    });
  }

  test('the MCP manifest declares no authentication and the three tools', async () => {
    const res = await request(t.app).get('/.well-known/mcp.json').expect(200).expect(conforms);
    assert.deepEqual(res.body.authentication, { type: 'none', required: false });
    assert.equal(res.body.transport.endpoint, '/mcp');
    assert.deepEqual(res.body.tools.map((tool: { name: string }) => tool.name).sort(), ['get_report', 'list_checks', 'scan_site']);
  });

  const docs: Array<[string, string, RegExp]> = [
    ['/methodology.md', 'text/markdown', /Probe disclosure[\s\S]*never\*\* says that a vendor's verified crawler is\s+blocked/],
    ['/llms.txt', 'text/plain', /^# agent-readiness\n\n> /],
    ['/agents.md', 'text/markdown', /scan_site/],
    ['/auth.md', 'text/markdown', /no API keys, no accounts and no OAuth/],
    ['/privacy', 'text/html', /What we store/],
    ['/terms', 'text/html', /Terms of use/],
  ];
  for (const [path, type, content] of docs) {
    test(`${path} is served as ${type} with real content`, async () => {
      const res = await request(t.app).get(path).expect(200).expect(conforms);
      assert.equal(res.headers['content-type'], `${type}; charset=utf-8`);
      assert.match(res.text, content);
      assert.doesNotMatch(res.text, /\{\{[A-Z_]+\}\}/, 'no unfilled placeholder');
    });
  }

  for (const [path, heading] of [['/privacy', /^# /m], ['/terms', /^# /m]] as const) {
    test(`${path} answers text/markdown with its Markdown source, and says it varies by Accept`, async () => {
      const md = await request(t.app).get(path).set('Accept', 'text/markdown').expect(200).expect(conforms);
      assert.equal(md.headers['content-type'], 'text/markdown; charset=utf-8');
      assert.match(md.text, heading);
      assert.doesNotMatch(md.text, /<html|\{\{[A-Z_]+\}\}/);
      assert.match(String(md.headers.vary), /Accept/);
      const page = await request(t.app).get(path).set('Accept', 'text/html,*/*;q=0.8').expect(200).expect(conforms);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(String(page.headers.vary), /Accept/);
    });
  }

  test('documents link to this instance, not a hard-coded host', async () => {
    const res = await request(t.app).get('/llms.txt').expect(200).expect(conforms);
    assert.match(res.text, /\(http:\/\/agent-readiness\.test\/openapi\.json\)/);
  });

  test('HTML documents carry a strict CSP and no script', async () => {
    const res = await request(t.app).get('/privacy').expect(200).expect(conforms);
    assert.match(res.headers['content-security-policy']!, /default-src 'none'/);
    assert.doesNotMatch(res.text, /<script/i);
  });
});

describe('CORS', () => {
  test('machine-readable surfaces answer a preflight', async () => {
    const res = await request(t.app).options('/mcp').set('Origin', 'https://inspector.example').set('Access-Control-Request-Method', 'POST').expect(204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(res.headers['access-control-allow-methods']!, /POST/);
  });

  test('human pages and scan submission are not opened to other origins', async () => {
    const page = await request(t.app).get('/privacy').set('Origin', 'https://evil.example');
    assert.equal(page.headers['access-control-allow-origin'], undefined);
    const scan = await request(t.app).post('/scan').set('Origin', 'https://evil.example').send({});
    assert.equal(scan.headers['access-control-allow-origin'], undefined);
  });
});

describe('errors are always the spec Error shape', () => {
  test('an unknown path gives a JSON 404, not an HTML page', async () => {
    const res = await request(t.app).get('/wp-admin/').expect(404);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.match(res.body.error, /No endpoint/);
  });

  test('a method the path does not have gives a JSON 405', async () => {
    const res = await request(t.app).delete('/health').expect(405);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.ok(res.body.error);
  });

  test('a response that breaks openapi.yaml is refused with a 500 rather than sent', async () => {
    const broken = await testApp({}, { handlers: { getHealth: (_req, res) => void res.json({ ok: 'yes' }) } });
    try {
      const res = await request(broken.app).get('/health').expect(500);
      assert.deepEqual(Object.keys(res.body), ['error']);
      assert.doesNotMatch(res.text, /at .*\.ts:\d+/, 'no stack trace');
    } finally {
      await broken.close();
    }
  });

  test('a handler that throws unexpectedly gives a 500 Error without a stack trace', async () => {
    const failing = await testApp({}, { handlers: { getHealth: () => { throw new Error('database exploded at /srv/app.ts:12'); } } });
    try {
      const res = await request(failing.app).get('/health').expect(500);
      assert.doesNotMatch(res.text, /exploded|app\.ts/);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    } finally {
      await failing.close();
    }
  });
});

describe('request bodies', () => {
  const lead = { name: 'Ada Lovelace', email: 'ada@example.com' };

  test('a body that is not JSON is a 415', async () => {
    await request(t.app).post('/scan').set('Content-Type', 'text/plain').send('example.com').expect(415).expect(conforms);
  });

  test('malformed JSON is a 400 naming the problem', async () => {
    const res = await request(t.app).post('/scan').set('Content-Type', 'application/json').send('{"domain": ').expect(400).expect(conforms);
    assert.match(res.body.error, /not valid JSON/);
  });

  test('wrong types are a 400 listing every problem', async () => {
    const res = await request(t.app).post('/scan').send({ domain: 42, lead, fresh: 'yes' }).expect(400).expect(conforms);
    assert.match(res.body.hint, /domain/);
    assert.match(res.body.hint, /fresh/);
  });

  test('unknown fields are a 400', async () => {
    const res = await request(t.app).post('/scan').send({ domain: 'example.com', lead, priority: 'high' }).expect(400).expect(conforms);
    assert.match(res.body.hint, /priority/);
  });

  test('missing contact details are a lead-gate 400 that carries `required`', async () => {
    const res = await request(t.app).post('/scan').send({ domain: 'example.com' }).expect(400).expect(conforms);
    assert.ok(res.body.required.lead.name);
    assert.ok(res.body.required.lead.email);
  });

  const badLeads: Array<[string, Record<string, unknown>]> = [
    ['a one-letter name', { name: 'A', email: 'a@example.com' }],
    ['an email that is not one', { name: 'Ada', email: 'ada at example' }],
    ['a phone with letters', { name: 'Ada', email: 'a@example.com', phone: 'call me maybe' }],
    ['a phone with six digits', { name: 'Ada', email: 'a@example.com', phone: '+1 234-56' }],
    ['a role over 80 characters', { name: 'Ada', email: 'a@example.com', role: 'r'.repeat(81) }],
  ];
  for (const [name, badLead] of badLeads) {
    test(`the lead gate refuses ${name}`, async () => {
      const res = await request(t.app).post('/scan').send({ domain: 'example.com', lead: badLead }).expect(400).expect(conforms);
      assert.ok(res.body.required);
    });
  }

  test('a body over the limit by Content-Length is refused with 413 before it is read', async () => {
    const res = await request(t.app).post('/scan').send({ domain: 'x'.repeat(20000), lead }).expect(413).expect(conforms);
    assert.match(res.body.hint, /16384 bytes/);
  });

  test('a chunked body over the limit is cut off with 413', async () => {
    const server = http.createServer(t.app).listen(0, '127.0.0.1');
    try {
      await new Promise((r) => server.once('listening', r));
      const { port } = server.address() as AddressInfo;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/scan', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.write('{"domain":"');
        for (let i = 0; i < 40; i++) req.write('a'.repeat(1024));
        req.end('"}');
      });
      assert.equal(status, 413);
    } finally {
      server.close();
    }
  });

  test('a compressed body is refused rather than inflated', async () => {
    await request(t.app).post('/scan').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{}').expect(415).expect(conforms);
  });
});

describe('HEAD mirrors GET in both pipelines', () => {
  for (const [pipeline, env] of [['development', {}], ['production', { NODE_ENV: 'production' }]] as const) {
    test(`HEAD of documented reads answers like their GET without a body; other methods stay 405 (${pipeline})`, async () => {
      const app = pipeline === 'development' ? t : await testApp(env);
      try {
        for (const path of ['/', '/robots.txt', '/api/checks', '/api/checks?rubric=rubric-v1.3-preview', '/api/checks?rubric=rubric-v1.1', '/.well-known/ard.json', '/methodology.md']) {
          const get = await request(app.app).get(path).expect(200);
          const head = await request(app.app).head(path).expect(200);
          assert.equal(head.headers['content-type'], get.headers['content-type'], path);
          assert.equal(head.text ?? '', '', `${path}: no body`);
        }
        await request(app.app).head('/api/checks?rubric=nope').expect(400);
        await request(app.app).put('/').expect(405);
      } finally {
        if (app !== t) await app.close();
      }
    });
  }
});
