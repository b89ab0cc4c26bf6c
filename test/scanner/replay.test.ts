// Every stored probe says what was sent and repeats as one line of curl that a shell cannot
// be tricked by, whatever URL or header value a site supplied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { curlCommand, shellQuote } from '../../src/scanner/replay.ts';
import { toView } from '../../src/scanner/probe.ts';
import { REQUEST_KINDS } from '../../src/scanner/requests.ts';
import { documentsFor } from '../../src/docs/documents.ts';

/** What a POSIX shell makes of a command line: the argv it would pass to curl. */
function argvOf(command: string): string[] {
  const out = execFileSync('sh', ['-c', `for a in ${command.replace(/^curl /, '')}; do printf '%s\\0' "$a"; done`]).toString();
  return out.split('\0').slice(0, -1);
}

test('shellQuote keeps hostile words as one argument, quotes and $(...) included', () => {
  for (const word of ["it's", '$(touch /tmp/pwned)', '`id`', 'a b\tc', "'; rm -rf / #", '"double"', '\\n']) {
    assert.deepEqual(argvOf(`curl ${shellQuote(word)}`), [word]);
  }
});

test('the curl line of a probe repeats its method, every header and the URL, one argument each', () => {
  const url = "https://example.com/a path/it's?q=$(id)";
  const cmd = curlCommand('GET', url, { host: 'example.com', 'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', accept: '*/*' });
  assert.deepEqual(argvOf(cmd), ['-sS', '-i', '-L', '--max-redirs', '5', '--compressed', '-H', 'User-Agent: Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', '-H', 'Accept: */*', url]);
});

test('the curl line keeps a header value or URL with line breaks on one line, and cases any header name', () => {
  const cmd = curlCommand('GET', 'https://example.com/a\r\nb', { 'signature-agent': 'x', 'x-odd-name': "a\r\nb\nit's", accept: 'text/html' });
  assert.deepEqual(argvOf(cmd), ['-sS', '-i', '-L', '--max-redirs', '5', '--compressed', '-H', 'Signature-Agent: x', '-H', "X-Odd-Name: a b it's", '-H', 'Accept: text/html', 'https://example.com/ab']);
});

test('a probe record stores the method, every request header (Host included) and its curl', () => {
  const view = toView({ key: 'grid:GPTBot', network: 'networkA', url: 'https://example.com/', userAgent: 'GPTBot/1.2', isHome: true },
    { ok: true, status: 200, headers: { 'content-type': 'text/html' }, setCookieNames: [], body: Buffer.from('<p>hi</p>'), bodyTruncated: false, finalUrl: 'https://example.com/', redirects: [], timingMs: 12 });
  assert.equal(view.record.method, 'GET');
  assert.deepEqual(Object.keys(view.record.requestHeaders!), ['host', 'user-agent', 'accept', 'accept-language', 'accept-encoding']);
  assert.equal(view.record.requestHeaders!.host, 'example.com');
  assert.match(view.record.curl!, /^curl -sS -i -L --max-redirs 5 --compressed -H 'User-Agent: GPTBot\/1\.2' .* 'https:\/\/example\.com\/'$/);
});

test('/methodology.md lists every kind of request a scan makes', () => {
  const doc = documentsFor('https://agent-readiness.example').methodology;
  for (const k of REQUEST_KINDS) assert.ok(doc.includes(k.what), `methodology names ${k.key}`);
});

test('Link headers are parsed by RFC 8288 rules: several rels, quoted commas and semicolons, malformed input', async () => {
  const { parseLinkHeader } = await import('../../src/scanner/page.ts');
  assert.deepEqual(parseLinkHeader('</openapi.json>; rel="service-desc describedby"; type="application/json", </a,b;c.md>; rel=alternate; type="text/markdown"'), [
    { href: '/openapi.json', rel: ['service-desc'], type: 'application/json' },
    { href: '/openapi.json', rel: ['describedby'], type: 'application/json' },
    { href: '/a,b;c.md', rel: ['alternate'], type: 'text/markdown' },
  ]);
  assert.deepEqual(parseLinkHeader('<https://x.example/>; title="a, b"; rel="api-catalog"'), [{ href: 'https://x.example/', rel: ['api-catalog'], type: '' }]);
  assert.deepEqual(parseLinkHeader(undefined), []);
});
