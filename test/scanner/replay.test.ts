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
  assert.deepEqual(argvOf(cmd), ['-sS', '-i', '-L', '--max-redirs', '5', '--compressed', '-H', 'user-agent: Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', '-H', 'accept: */*', url]);
});

test('the curl line sends header names in the case they were sent, and no Accept of curl\'s own when the agent sends none', () => {
  const chrome = curlCommand('GET', 'https://example.com/', { host: 'example.com', 'sec-ch-ua-mobile': '?0', 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' });
  assert.deepEqual(argvOf(chrome).slice(6, -1), ['-H', 'sec-ch-ua-mobile: ?0', '-H', 'User-Agent: Mozilla/5.0', '-H', 'Accept: text/html']);
  const bare = curlCommand('GET', 'https://example.com/', { host: 'example.com', 'user-agent': 'PerplexityBot/1.0', from: 'crawler-support@perplexity.ai' });
  assert.deepEqual(argvOf(bare).slice(6, -1), ['-H', 'user-agent: PerplexityBot/1.0', '-H', 'from: crawler-support@perplexity.ai', '-H', 'Accept:']);
});

test('the curl line keeps a header value or URL with line breaks on one line', () => {
  const cmd = curlCommand('GET', 'https://example.com/a\r\nb', { 'signature-agent': 'x', 'x-odd-name': "a\r\nb\nit's", accept: 'text/html' });
  assert.deepEqual(argvOf(cmd), ['-sS', '-i', '-L', '--max-redirs', '5', '--compressed', '-H', 'signature-agent: x', '-H', "x-odd-name: a b it's", '-H', 'accept: text/html', 'https://example.com/ab']);
});

test('a probe record stores the method, every request header (Host included) and its curl', () => {
  const view = toView({ key: 'grid:GPTBot', network: 'networkA', url: 'https://example.com/', userAgent: 'GPTBot/1.2', isHome: true },
    { ok: true, status: 200, headers: { 'content-type': 'text/html' }, setCookieNames: [], body: Buffer.from('<p>hi</p>'), bodyTruncated: false, finalUrl: 'https://example.com/', redirects: [], timingMs: 12 });
  assert.equal(view.record.method, 'GET');
  assert.deepEqual(Object.keys(view.record.requestHeaders!), ['host', 'user-agent', 'accept', 'accept-language', 'accept-encoding']);
  assert.equal(view.record.requestHeaders!.host, 'example.com');
  assert.match(view.record.curl!, /^curl -sS -i -L --max-redirs 5 --compressed -H 'user-agent: GPTBot\/1\.2' .* 'https:\/\/example\.com\/'$/);
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

test('/methodology.md lists every header the control, each agent and each product sends, in send order, from the roster itself', async () => {
  const { agentRequestsSection } = await import('../../src/docs/agent-requests.ts');
  const { controlHeaders, getRoster, agentHeaders, productArrivals } = await import('../../src/scanner/roster.ts');
  const doc = documentsFor('https://agent-readiness.example').methodology;
  assert.ok(doc.includes(agentRequestsSection()), 'the section is rendered from the roster data, not written by hand');
  const lists = [controlHeaders(), ...getRoster().filter((a) => !a.tokenOnly).map(agentHeaders), ...productArrivals().map((p) => p.request.headers)];
  for (const list of lists) {
    // Each request's lines appear together, in the order they are sent.
    assert.ok(doc.includes(`\`\`\`http\n${list.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\`\`\``), list[0]!.join(': '));
  }
});
