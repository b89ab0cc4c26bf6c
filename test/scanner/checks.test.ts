// Every rubric check, table-driven over recorded evidence: a good baseline with one change per case.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { V12_ADDED, V12_REVISED } from '../../src/scanner/checks/v1.2.ts';
import { V13_ADDED } from '../../src/scanner/checks/preview.ts';
import { CHECKS as CURRENT } from '../../src/scanner/checks/index.ts';
import type { CheckStatus } from '../../src/scanner/types.ts';
import type { CheckDefinition } from '../../src/scanner/checks/define.ts';
import { evidence, DOMAIN, type BaselineOptions, type Resp } from './fixtures.ts';
import { htmlPage } from '../world/site.ts';
import { USER, SEARCH, TRAIN } from '../world/scenarios/tokens.ts';
import { DNS_RECORD_KINDS } from '../../src/scanner/dns-records.ts';
import type { DohAnswer } from '../../src/net/doh.ts';

const U = `https://${DOMAIN}`;
const blockAgents = (tokens: readonly string[]) => (t: string) => (tokens.includes(t) ? { status: 403, body: 'Forbidden' } : undefined);
const page = (o: Parameters<typeof htmlPage>[0]) => ({ body: htmlPage(o).replaceAll('{domain}', DOMAIN) });
const txt = (body: string, type = 'text/plain') => ({ body, headers: { 'content-type': type } });
const json = (v: unknown) => txt(JSON.stringify(v), 'application/json');
const llms = txt(`# Shop\n\n> Products.\n\n## Pages\n\n- [A](${U}/a): a\n- [B](${U}/b): b\n`);
const transport = { error: 'TIMEOUT' };
/** An SPA host's answer for any path (200, text/html): the file is absent, never broken. */
const shell = { body: '<!doctype html><html><head><script type="module" src="/assets/index-x.js"></script></head><body><div id="root"></div></body></html>' };


/** An llms.txt listing eight same-site links (b.md a Markdown file) and the answers to following them: a page each, unless `answers` says otherwise. */
const EIGHT = ['a', 'b.md', 'c', 'd', 'e', 'f', 'g', 'h'];
const TEN = [...EIGHT, 'i', 'j'];
const listing = (names: readonly string[]) => txt(`# Docs\n\n> Guides.\n\n## Pages\n\n${names.map((n) => `- [${n}](${U}/${n})`).join('\n')}\n`);
const eight = listing(EIGHT);
const ten = listing(TEN);
function followed(answers: Record<string, Resp>, names: readonly string[] = EIGHT): Record<string, [string, Resp]> {
  return Object.fromEntries(names.map((n) => [`llms-link:${U}/${n}`, [`${U}/${n}`, answers[n] ?? (n.endsWith('.md') ? txt(`# ${n}\n`, 'text/markdown') : page({ title: n }))]]));
}

const MCP_CATALOG = '/.well-known/mcp/catalog.json';
const catalogOf = (url: string) => json({ specVersion: 'draft', entries: [{ identifier: 'urn:air:shop.example:mcp:minimal', displayName: 'Minimal', type: 'application/mcp-server-card+json', url }] });
/** The server-card extension's own example cards (test/fixtures/mcp-server-card/README.md). */
const CARD_EXAMPLE = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/mcp-server-card/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

const X402_HEADER = Buffer.from(JSON.stringify({ x402Version: 2, resource: `${U}/`, accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1000', asset: 'USDC', payTo: '0x1' }] })).toString('base64');
const X402_DISCOVERY = { version: 1, resources: [`${U}/api/report`, `${U}/api/data`], ownershipProofs: ['0xabc'] };

type Case = [name: string, given: BaselineOptions, want: CheckStatus, credit?: number];

/** DNS lookups: every kind NXDOMAIN (or `rest`) except those given. */
function dnsOf(answers: Partial<Record<string, DohAnswer>>, rest: DohAnswer = { state: 'nxdomain', rcode: 'NXDOMAIN' }): NonNullable<BaselineOptions['dns']> {
  return { resolver: 'https://resolver.example/dns-query', lookups: DNS_RECORD_KINDS.map((kind) => ({ kind, name: `${kind.label}.${DOMAIN}`, answer: answers[kind.label] ?? rest, evidenceId: `ev_${kind.label}` })) };
}
const txtRecord = (text: string): DohAnswer => ({ state: 'found', records: [{ type: 'TXT', text }] });
const a2aCard = (url: string) => json({ name: 'A', description: 'B', version: '1', supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] });
const CASES: Record<string, Case[]> = {
  'access.user-agents': [
    ['all pass', {}, 'pass'],
    ['all user agents blocked', { agent: blockAgents(USER) }, 'fail'],
    ['blocked on one network only gives half credit per agent', { agent: (t, n) => (USER.includes(t) && n === 'networkB' ? { status: 403, body: 'x' } : undefined) }, 'pass', 0.5],
    ['no usable network', { control: () => ({ status: 503, body: 'down' }) }, 'inconclusive'],
    ['robots.txt disallows them: excluded, too few left', { robots: txt('User-agent: *\nDisallow: /\n') }, 'inconclusive'],
    ['transport errors only', { agent: (t) => (USER.includes(t) ? transport : undefined) }, 'inconclusive'],
  ],
  'access.search-agents': [
    ['all pass', {}, 'pass'],
    ['search crawlers challenged', { agent: (t) => (SEARCH.includes(t) ? { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' } : undefined) }, 'fail'],
  ],
  'access.training-consistency': [
    ['robots allows, edge allows', {}, 'pass'],
    ['robots allows, edge blocks training', { agent: blockAgents([...TRAIN, 'CCBot', 'archive.org_bot']) }, 'fail'],
    ['robots blocks training and the edge agrees: not penalised', { robots: txt(`User-agent: *\nDisallow: /\n`), agent: blockAgents([...TRAIN]) }, 'inconclusive'],
  ],
  'access.content-parity': [
    ['same page', {}, 'pass'],
    ['agents get a teaser', { agent: () => page({ text: 'Subscribe.' }) }, 'fail'],
    ['no agent passed', { agent: () => ({ status: 403, body: 'no' }) }, 'inconclusive'],
  ],
  'access.no-agent-rate-limit': [
    ['no 429', {}, 'pass'],
    ['one agent rate-limited', { agent: (t) => (t === 'GPTBot' ? { status: 429, body: 'slow down' } : undefined) }, 'fail'],
    ['nothing decided', { agent: () => transport }, 'inconclusive'],
  ],
  'policy.robots-reachable': [
    ['text robots.txt', {}, 'pass'],
    ['404: allowed but no policy', { robots: { status: 404, body: 'nope' } }, 'pass', 0.5],
    ['500', { robots: { status: 500, body: 'err' } }, 'fail'],
    ['HTML soft-404', { robots: { status: 200, body: '<!doctype html><p>home' } }, 'fail'],
    ['challenged for agents only', { robotsAgent: { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' } }, 'fail'],
    ['transport error', { robots: transport }, 'inconclusive'],
  ],
  'policy.robots-valid': [
    ['valid', {}, 'pass'],
    ['no group', { robots: txt('Disallow: /x\n') }, 'fail'],
    ['mostly junk lines', { robots: txt('User-agent: *\nfoo\nbar\nbaz\n') }, 'pass', 0.5],
    ['no robots.txt', { robots: { status: 404, body: '' } }, 'skipped'],
  ],
  'policy.search-user-allowed': [
    ['allowed', {}, 'pass'],
    ['blanket disallow', { robots: txt('User-agent: *\nDisallow: /\n') }, 'fail'],
    ['partial everywhere', { robots: txt('User-agent: *\nDisallow: /private\n') }, 'pass', 0.75],
    ['unreadable robots.txt', { robots: { status: 503, body: '' } }, 'inconclusive'],
  ],
  'policy.ai-rules-explicit': [
    ['only a wildcard group', {}, 'fail'],
    ['one group per role', { robots: txt('User-agent: ChatGPT-User\nAllow: /\nUser-agent: OAI-SearchBot\nAllow: /\nUser-agent: GPTBot\nDisallow: /\n') }, 'pass'],
    ['two roles of three', { robots: txt('User-agent: ChatGPT-User\nAllow: /\nUser-agent: GPTBot\nDisallow: /\n') }, 'pass', 0.666],
    ['content signals cover all roles', { robots: txt('User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n') }, 'pass'],
    ['unreadable', { robots: transport }, 'inconclusive'],
  ],
  'policy.training-preference': [
    ['silent', {}, 'fail'],
    ['GPTBot group', { robots: txt('User-agent: GPTBot\nDisallow: /\n') }, 'pass'],
    ['ai-train signal', { robots: txt('User-agent: *\nContent-Signal: ai-train=yes\n') }, 'pass'],
    ['TDMRep file', { files: { '/.well-known/tdmrep.json': json([{ location: '/', 'tdm-reservation': 1 }]) } }, 'pass'],
    ['robots unreadable, nothing else', { robots: transport }, 'inconclusive'],
  ],
  'policy.usage-signals-valid': [
    ['no signals', {}, 'skipped'],
    ['valid signal', { robots: txt('User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n') }, 'pass'],
    ['malformed signal', { robots: txt('User-agent: *\nContent-Signal: search=maybe\n') }, 'fail'],
    ['search granted but everything disallowed', { robots: txt('User-agent: *\nContent-Signal: search=yes\nDisallow: /\n') }, 'fail'],
    ['valid Content-Usage', { robots: txt('User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n') }, 'pass'],
  ],
  'policy.not-noindexed': [
    ['indexable', {}, 'pass'],
    ['X-Robots-Tag noindex', { home: { body: htmlPage().replaceAll('{domain}', DOMAIN), headers: { 'x-robots-tag': 'noindex' } } }, 'fail'],
    ['meta robots none', { home: page({ head: '<meta name="robots" content="none">' }) }, 'fail'],
    ['home not measured', { control: () => transport }, 'inconclusive'],
  ],
  'policy.sitemap': [
    ['an app shell at /sitemap.xml is no sitemap', { files: { '/sitemap.xml': shell } }, 'fail'],
    ['sitemap.xml', {}, 'pass'],
    ['missing everywhere', { files: { '/sitemap.xml': { status: 404, body: '' } } }, 'fail'],
    ['only the one robots.txt names', { files: { '/sitemap.xml': { status: 404, body: '' } }, followups: { 'sitemap:robots': [`${U}/s.xml`, txt('<sitemapindex></sitemapindex>', 'application/xml')] } }, 'pass'],
    ['present but not a sitemap', { files: { '/sitemap.xml': txt('hello') } }, 'pass', 0.5],
    ['unfetchable', { files: { '/sitemap.xml': transport } }, 'inconclusive'],
  ],
  'discovery.llms-txt': [
    ['absent', {}, 'fail'],
    ['present', { files: { '/llms.txt': llms } }, 'pass'],
    ['no H1', { files: { '/llms.txt': txt('just text') } }, 'pass', 0.5],
    ['HTML soft-404 is absence', { files: { '/llms.txt': { body: '<!doctype html><p>home' } } }, 'fail'],
    ['challenged', { files: { '/llms.txt': { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' } } }, 'inconclusive'],
  ],
  'discovery.llms-txt-size': [
    ['no llms.txt', {}, 'skipped'],
    ['small', { files: { '/llms.txt': llms } }, 'pass'],
    ['over 100k', { files: { '/llms.txt': txt(`# Big\n${'x'.repeat(120_000)}`) } }, 'fail'],
    ['between 50k and 100k', { files: { '/llms.txt': txt(`# Big\n${'x'.repeat(60_000)}`) } }, 'pass', 0.5],
  ],
  'discovery.llms-txt-links': [
    ['all resolve', { files: { '/llms.txt': llms }, followups: { [`llms-link:${U}/a`]: [`${U}/a`, page({})], [`llms-link:${U}/b`]: [`${U}/b`, page({})] } }, 'pass'],
    ['half dead', { files: { '/llms.txt': llms }, followups: { [`llms-link:${U}/a`]: [`${U}/a`, page({})], [`llms-link:${U}/b`]: [`${U}/b`, { status: 404, body: '' }] } }, 'fail', 0.499],
    ['no llms.txt', {}, 'skipped'],
    // rubric-v1.1 scores the first 5 links in sorted order: /f to /h, followed for the preview, do not count.
    ['only the first five count: three dead after them change nothing', { files: { '/llms.txt': eight }, followups: followed({ f: { status: 404, body: '' }, g: { status: 410, body: '' }, h: { status: 503, body: '' } }) }, 'pass'],
    ['a 5xx is not dead to rubric-v1.1, nor is an HTML page at a .md link', { files: { '/llms.txt': eight }, followups: followed({ a: { status: 503, body: '' }, 'b.md': shell }) }, 'pass'],
  ],
  'discovery.link-headers': [
    ['none', {}, 'fail'],
    ['service-desc Link header', { home: { body: htmlPage().replaceAll('{domain}', DOMAIN), headers: { link: '</openapi.json>; rel="service-desc"' } } }, 'pass'],
    ['markdown alternate link element', { home: page({ head: '<link rel="alternate" type="text/markdown" href="/index.md">' }) }, 'pass'],
  ],
  'discovery.api-catalog': [
    ['an app shell at the path is absence, not a broken catalog', { files: { '/.well-known/api-catalog': shell } }, 'fail'],
    ['absent', {}, 'fail'],
    ['linkset with service-desc', { files: { '/.well-known/api-catalog': json({ linkset: [{ anchor: `${U}/api`, 'service-desc': [{ href: `${U}/openapi.json` }] }] }) } }, 'pass'],
    ['JSON but no linkset', { files: { '/.well-known/api-catalog': json({ apis: [] }) } }, 'pass', 0.5],
  ],
  'discovery.openapi': [
    ['absent', {}, 'fail'],
    ['only at a guessed path', { files: { '/openapi.json': json({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} }) } }, 'pass', 0.5],
    ['linked with service-desc', { home: { body: htmlPage().replaceAll('{domain}', DOMAIN), headers: { link: `<${U}/spec.json>; rel="service-desc"` } }, followups: { [`service-desc:${U}/spec.json`]: [`${U}/spec.json`, json({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: {} })] } }, 'pass'],
  ],
  'discovery.mcp-card': [
    ['absent', {}, 'fail'],
    ['server card', { files: { '/.well-known/mcp/server-card.json': json({ name: 'x', remotes: [{ url: `${U}/mcp` }] }) } }, 'pass'],
    ['unfetchable', { files: { '/.well-known/mcp.json': transport } }, 'inconclusive'],
  ],
  'discovery.oauth-metadata': [
    ['no API: skipped', {}, 'skipped'],
    ['API without metadata', { files: { '/.well-known/api-catalog': json({ linkset: [] }) } }, 'fail'],
    ['API with protected-resource metadata', { files: { '/.well-known/api-catalog': json({ linkset: [] }), '/.well-known/oauth-protected-resource': json({ resource: `${U}/api` }) } }, 'pass'],
  ],
  'discovery.agent-card': [
    ['absent', {}, 'fail'],
    ['present', { files: { '/.well-known/agent-card.json': json({ name: 'helper', skills: [] }) } }, 'pass'],
  ],
  'content.server-rendered': [
    ['full text', {}, 'pass'],
    ['empty app shell', { home: { body: '<html><body><div id="root"></div></body></html>' } }, 'fail'],
    ['300 characters', { home: { body: `<html><body><p>${'word '.repeat(60)}</p></body></html>` } }, 'fail', 0.497],
    ['home not measured', { control: () => ({ status: 403, body: 'no' }) }, 'inconclusive'],
  ],
  'content.markdown-negotiation': [
    ['HTML only', {}, 'fail'],
    ['markdown with Vary', { markdown: { body: '# Shop\n', headers: { 'content-type': 'text/markdown', vary: 'Accept' } } }, 'pass'],
    ['markdown without Vary', { markdown: { body: '# Shop\n', headers: { 'content-type': 'text/markdown' } } }, 'pass', 0.7],
    ['markdown with a wrong type', { markdown: { body: '# Shop\n', headers: { 'content-type': 'text/plain' } } }, 'pass', 0.5],
    ['only an alternate link', { home: page({ head: '<link rel="alternate" type="text/markdown" href="/index.md">' }) }, 'fail', 0.3],
    ['request failed', { markdown: transport }, 'inconclusive'],
  ],
  'content.markdown-variants': [
    ['nothing sampled', {}, 'skipped'],
    ['twins exist', { followups: { [`md-variant:${U}/a`]: [`${U}/a.md`, txt('# A', 'text/markdown')] } }, 'pass'],
    ['no twins', { followups: { [`md-variant:${U}/a`]: [`${U}/a.md`, { status: 404, body: '' }] } }, 'fail'],
  ],
  'content.structured-data': [
    ['JSON-LD Organization', {}, 'pass'],
    ['none', { home: page({ jsonLd: null }) }, 'fail'],
    ['broken JSON-LD', { home: page({ jsonLd: '{"@context": "https://schema.org", ' }) }, 'pass', 0.5],
    ['microdata only', { home: page({ jsonLd: null, body: '<div itemscope itemtype="https://schema.org/Product"></div>' }) }, 'pass', 0.5],
  ],
  'content.page-size': [
    ['small', {}, 'pass'],
    ['huge', { home: { body: `<p>${'a'.repeat(120_000)}</p>` } }, 'fail'],
  ],
  'content.canonical-meta': [
    ['all four', {}, 'pass'],
    ['no canonical, no lang', { home: { body: '<html><head><title>T</title><meta name="description" content="d"></head><body>x</body></html>' } }, 'pass', 0.5],
    ['canonical to another site', { home: page({ canonical: 'https://elsewhere-fixtures.com/' }) }, 'pass', 0.75],
  ],
  'trust.machine-license': [
    ['nothing', {}, 'fail'],
    ['RSL via robots License', { robots: txt(`User-agent: *\nAllow: /\nLicense: ${U}/l.xml\n`), followups: { license: [`${U}/l.xml`, txt('<rsl xmlns="https://rslstandard.org/rsl"></rsl>', 'application/xml')] } }, 'pass'],
    ['License line pointing at junk', { robots: txt(`User-agent: *\nLicense: ${U}/l.xml\n`), followups: { license: [`${U}/l.xml`, txt('hello')] } }, 'fail'],
    ['TDMRep', { files: { '/.well-known/tdmrep.json': json([{ location: '/', 'tdm-reservation': 1 }]) } }, 'pass'],
  ],
  'trust.security-txt': [
    ['a "not found" text with 200 is absence', { files: { '/.well-known/security.txt': txt('404 page not found') } }, 'fail'],
    ['absent', {}, 'fail'],
    ['current', { files: { '/.well-known/security.txt': txt('Contact: mailto:s@x\nExpires: 2030-01-01T00:00:00Z\n') } }, 'pass'],
    ['expired (judged against the scan time)', { files: { '/.well-known/security.txt': txt('Contact: mailto:s@x\nExpires: 2020-01-01T00:00:00Z\n') } }, 'pass', 0.5],
    ['unfetchable', { files: { '/.well-known/security.txt': transport } }, 'inconclusive'],
  ],
  // rubric-v1.2-preview
  'access.payment-offers': [
    ['no 402 anywhere: not applicable', {}, 'inconclusive'],
    ['pay per crawl price', { agent: (t) => (TRAIN.includes(t) ? { status: 402, headers: { 'crawler-price': 'USD 0.01' }, body: '' } : undefined) }, 'pass'],
    ['x402 v2 offer', { agent: (t) => (TRAIN.includes(t) ? { status: 402, headers: { 'payment-required': Buffer.from(JSON.stringify({ x402Version: 2, accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1000', asset: 'USDC', payTo: '0x1' }] })).toString('base64') }, body: '' } : undefined) }, 'pass'],
    ['bare 402', { agent: (t) => (TRAIN.includes(t) ? { status: 402, body: 'Payment Required' } : undefined) }, 'fail'],
    ['x402 header that is not base64 JSON', { agent: (t) => (TRAIN.includes(t) ? { status: 402, headers: { 'payment-required': '%%%' }, body: '' } : undefined) }, 'fail'],
    ['half readable', { agent: (t, n) => (TRAIN.includes(t) ? { status: 402, headers: (n === 'networkA' ? { 'crawler-price': 'USD 0.01' } : {}) as Record<string, string>, body: '' } : undefined) }, 'pass', 0.5],
    // issue 37 item 3: /.well-known/x402 is decoded beside the offers (shape from x402scan docs/DISCOVERY.md).
    ['x402 offer and the discovery document', { files: { '/.well-known/x402': json(X402_DISCOVERY) }, agent: (t) => (TRAIN.includes(t) ? { status: 402, headers: { 'payment-required': X402_HEADER }, body: '' } : undefined) }, 'pass'],
    ['the discovery document alone: no 402 to judge, still not applicable', { files: { '/.well-known/x402': json(X402_DISCOVERY) } }, 'inconclusive'],
  ],
  // issue 36 item 6
  'access.refusal-readable': [
    ['no agent refused: not applicable', {}, 'inconclusive'],
    ['problem+json refusals', { agent: (t) => (TRAIN.includes(t) ? { status: 403, headers: { 'content-type': 'application/problem+json' }, body: '{"title":"AI training is not licensed","type":"https://shop.world-fixtures.com/ai-policy"}' } : undefined) }, 'pass'],
    ['bare HTML refusals', { agent: (t) => (TRAIN.includes(t) ? { status: 403, body: '<html><title>Forbidden</title><h1>Forbidden</h1></html>' } : undefined) }, 'fail'],
    ['a 429 without Retry-After, with a JSON body', { agent: (t) => (TRAIN.includes(t) ? { status: 429, headers: { 'content-type': 'application/json' }, body: '{"error":"slow down"}' } : undefined) }, 'fail'],
    ['half readable', { agent: (t, n) => (TRAIN.includes(t) ? (n === 'networkA' ? { status: 403, headers: { 'content-type': 'application/json' }, body: '{"error":"no"}' } : { status: 403, body: 'no' }) : undefined) }, 'pass', 0.5],
  ],
  'policy.preferences-agree': [
    ['nothing published: not applicable', {}, 'inconclusive'],
    ['Content-Signal in robots.txt', { robots: txt('User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n') }, 'pass'],
    ['Content-Usage header', { home: { ...page({}), headers: { 'content-usage': 'train-ai=n, search=y' } } }, 'pass'],
    ['the two vocabularies disagree', { robots: txt('User-agent: *\nContent-Signal: ai-train=yes\nContent-Usage: train-ai=n\nAllow: /\n') }, 'fail'],
    ['search granted to agents robots.txt disallows', { robots: txt(`User-agent: *\nContent-Signal: search=yes\nAllow: /\n\n${SEARCH.map((t) => `User-agent: ${t}`).join('\n')}\nDisallow: /\n`) }, 'fail'],
    ['training refused while robots.txt allows crawling (a preference, not a conflict)', { robots: txt('User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n') }, 'pass'],
    ['malformed value', { robots: txt('User-agent: *\nContent-Usage: train-ai=maybe\n') }, 'fail'],
    ['path-scoped preference is not compared with the home page', { robots: txt('User-agent: *\nContent-Usage: /docs/ train-ai=y\nContent-Signal: ai-train=no\n') }, 'pass'],
    // issue 37 item 4: a training-preference group (draft-kelley-aipref-training-preference-signal-00) is a preference too.
    ['a __usage_ai-training group alone', { robots: txt('User-agent: *\nAllow: /\n\nUser-agent: __usage_ai-training\nDisallow: /\n') }, 'pass'],
    ['the group refuses training while Content-Signal grants it', { robots: txt('User-agent: *\nContent-Signal: ai-train=yes\nAllow: /\n\nUser-agent: __usage_ai-training\nDisallow: /\n') }, 'fail'],
    ['the group allows training while every training crawler is disallowed', { robots: txt(`User-agent: *\nAllow: /\n\nUser-agent: __usage_ai-training\nAllow: /\n\n${TRAIN.map((t) => `User-agent: ${t}`).join('\n')}\nDisallow: /\n`) }, 'fail'],
  ],
  'discovery.llms-txt-v2': [
    ['no llms.txt, no links: not applicable', {}, 'inconclusive'],
    ['llms.txt found only by its path', { files: { '/llms.txt': llms } }, 'fail', 0.4],
    ['describedby only', { home: page({ head: '<link rel="describedby" href="/llms.txt">' }) }, 'pass', 0.75],
    ['describedby as a Link header and a Markdown alternate', { home: { ...page({ head: '<link rel="alternate" type="text/markdown" href="/index.html.md">' }), headers: { link: '</llms.txt>; rel="describedby"' } } }, 'pass'],
    ['describedby to something that is no llms.txt', { home: page({ head: '<link rel="describedby" href="/about.json">' }) }, 'inconclusive'],
  ],
  'discovery.ard': [
    ['absent: not applicable', {}, 'inconclusive'],
    ['ard.json with complete entries', { files: { '/.well-known/ard.json': json({ entries: [{ identifier: 'urn:air:shop:mcp:catalog', displayName: 'Catalog', type: 'application/mcp-server-card+json', url: `${U}/mcp/server-card`, representativeQueries: ['find a product', 'check stock'] }] }) } }, 'pass'],
    ['ard.json without representativeQueries', { files: { '/.well-known/ard.json': json({ entries: [{ identifier: 'urn:air:shop:mcp:catalog', displayName: 'Catalog', type: 'application/json', url: `${U}/x` }] }) } }, 'pass', 0.85],
    ['ard.json with a bad identifier and both url and data', { files: { '/.well-known/ard.json': json({ entries: [{ identifier: 'catalog', displayName: 'C', type: 'application/json', url: `${U}/x`, data: {} }] }) } }, 'fail'],
    ['only the older ai-catalog.json', { files: { '/.well-known/ai-catalog.json': json({ specVersion: '0.1', host: DOMAIN, entries: [{ identifier: 'urn:air:shop:api:x', displayName: 'X', type: 'application/json', url: `${U}/x` }] }) } }, 'pass', 0.5],
    ['announced by Agentmap elsewhere', { robots: txt(`User-agent: *\nAllow: /\nAgentmap: ${U}/agents/ard.json\n`) }, 'inconclusive'],
    ['unfetchable', { files: { '/.well-known/ard.json': transport } }, 'inconclusive'],
  ],
  'discovery.a2a-card-v1': [
    ['absent: not applicable', {}, 'inconclusive'],
    ['v1.0 card', { files: { '/.well-known/agent-card.json': json({ name: 'Shop agent', description: 'Orders', version: '1.0.0', supportedInterfaces: [{ url: `${U}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [{ id: 'order', name: 'Order', description: 'Places orders', tags: ['shop'] }] }) } }, 'pass'],
    ['v0.3 card (top-level url)', { files: { '/.well-known/agent-card.json': json({ name: 'Shop agent', description: 'Orders', url: `${U}/a2a`, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', version: '1', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] }) } }, 'fail'],
    ['v1.0 card with an unknown binding', { files: { '/.well-known/agent-card.json': json({ name: 'A', description: 'B', version: '1', supportedInterfaces: [{ url: `${U}/a2a`, protocolBinding: 'SOAP', protocolVersion: '1.0' }], capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] }) } }, 'fail'],
  ],
  'discovery.dns-records': [
    ['no resolver configured', {}, 'inconclusive'],
    ['every name NXDOMAIN or NODATA: not applicable', { dns: dnsOf({ _agent: { state: 'nxdomain', rcode: 'NXDOMAIN' }, _mcp: { state: 'absent', rcode: 'NOERROR' } }) }, 'inconclusive'],
    ['every lookup failed', { dns: dnsOf({}, { state: 'failed', reason: 'the resolver answered HTTP 503' }) }, 'inconclusive'],
    ['AID v2 agreeing with the A2A card', { files: { '/.well-known/agent-card.json': a2aCard(`${U}/a2a`) }, dns: dnsOf({ _agent: txtRecord(`v=aid2;u=${U}/a2a;p=a2a`) }) }, 'pass'],
    ['AID v2 with no card to compare: noted, not a conflict', { dns: dnsOf({ _agent: txtRecord(`v=aid2;u=${U}/a2a;p=a2a`) }) }, 'pass'],
    ['ANS naming another A2A endpoint than the card', { files: { '/.well-known/agent-card.json': a2aCard(`${U}/a2a`) }, dns: dnsOf({ _ans: txtRecord(`v=ans1; version=1.0.0; p=a2a; mode=direct; url=https://agents.example.net/a2a`) }) }, 'fail'],
    ['an AID record without v=', { dns: dnsOf({ _agent: txtRecord(`u=${U}/a2a`) }) }, 'fail'],
    ['MCP in DNS agreeing with a SEP-1649 card (relative endpoint), one lookup failed', { files: { '/.well-known/mcp.json': json({ transport: { type: 'streamable-http', endpoint: '/mcp' } }) }, dns: dnsOf({ _mcp: txtRecord(`v=mcp1; url=${U}/mcp`), _ans: { state: 'failed', reason: 'TIMEOUT' } }) }, 'pass'],
    ['DNS-AID SVCB on the card\'s host', { files: { '/.well-known/agent-card.json': a2aCard(`${U}/a2a`) }, dns: dnsOf({ _agents: { state: 'found', records: [{ type: 'SVCB', priority: 1, target: `${DOMAIN}.`, params: { alpn: 'h2,a2a' } }] } }) }, 'pass'],
    ['MCP in DNS at the endpoint whose /server-card the MCP catalog lists', { files: { '/.well-known/mcp/catalog.json': json({ specVersion: 'draft', entries: [{ identifier: `urn:air:${DOMAIN}:shop`, displayName: 'Shop', type: 'application/mcp-server-card+json', url: `${U}/mcp/server-card` }] }) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, json({ name: 'com.shop/shop', version: '1', description: 'Shop' })] }, dns: dnsOf({ _mcp: txtRecord(`v=mcp1; url=${U}/mcp`) }) }, 'pass'],
    ['MCP in DNS elsewhere than the catalog\'s card', { files: { '/.well-known/mcp/catalog.json': json({ specVersion: 'draft', entries: [{ identifier: `urn:air:${DOMAIN}:shop`, displayName: 'Shop', type: 'application/mcp-server-card+json', url: `${U}/mcp/server-card` }] }) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, json({ name: 'com.shop/shop', version: '1', description: 'Shop' })] }, dns: dnsOf({ _mcp: txtRecord('v=mcp1; url=https://mcp.example.net/mcp') }) }, 'fail'],
    ['DNS-AID SVCB on another host than the card', { files: { '/.well-known/agent-card.json': a2aCard(`${U}/a2a`) }, dns: dnsOf({ _agents: { state: 'found', records: [{ type: 'SVCB', priority: 1, target: 'agents.example.net.', params: { alpn: 'a2a', port: '8443' } }] } }) }, 'fail'],
  ],
  'discovery.mcp-card-shape': [
    ['absent: not applicable', {}, 'inconclusive'],
    // The extension's own examples (test/fixtures/mcp-server-card/, copied from experimental-ext-server-card), judged by the pinned schema.
    ['the extension\'s minimal v2 card, listed by the MCP catalog', { files: { [MCP_CATALOG]: catalogOf(`${U}/mcp/server-card`) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, json(CARD_EXAMPLE('valid-minimal'))] } }, 'pass'],
    ['the extension\'s templated-remote v2 card, inline in the AI Catalog', { files: { '/.well-known/ai-catalog.json': json({ specVersion: '1.0', entries: [{ identifier: 'urn:air:shop:mcp:c', type: 'application/mcp-server-card+json', data: CARD_EXAMPLE('valid-templated-remote') }] }) } }, 'pass'],
    ['a valid v2 card only at a legacy path', { files: { '/.well-known/mcp/server-card.json': json(CARD_EXAMPLE('valid-minimal')) } }, 'pass', 0.75],
    ['the extension\'s wrong-schema-name example claims no v2 schema and has no remotes: ad hoc', { files: { [MCP_CATALOG]: catalogOf(`${U}/mcp/server-card`) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, json(CARD_EXAMPLE('invalid-wrong-schema-name'))] } }, 'fail'],
    ['a card claiming v2 whose remote has a transport the schema does not name', { files: { [MCP_CATALOG]: catalogOf(`${U}/mcp/server-card`) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, json({ ...CARD_EXAMPLE('valid-minimal'), remotes: [{ type: 'websocket', url: `${U}/ws` }] })] } }, 'fail'],
    ['v1 card (superseded)', { files: { '/.well-known/mcp/server-card.json': json({ $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json', name: 'com.shop/catalog', version: '1.0.0', description: 'Product catalog', remotes: [{ type: 'streamable-http', url: `${U}/mcp` }] }) } }, 'pass', 0.75],
    ['SEP-1649 card', { files: { '/.well-known/mcp.json': json({ version: '1.0', protocolVersion: '2025-06-18', serverInfo: { name: 'shop', version: '1.0.0' }, transport: { type: 'streamable-http', endpoint: '/mcp' } }) } }, 'pass', 0.75],
    ['ad hoc JSON', { files: { '/.well-known/mcp.json': json({ name: 'shop', url: `${U}/mcp` }) } }, 'fail'],
    ['v1 card inline in ard.json', { files: { '/.well-known/ard.json': json({ entries: [{ identifier: 'urn:air:shop:mcp:c', displayName: 'C', type: 'application/mcp-server-card+json', data: { name: 'com.shop/c', version: '1', description: 'C', remotes: [{ type: 'sse', url: `${U}/sse` }] } }] }) } }, 'pass', 0.75],
    ['the card a catalog lists could not be fetched', { files: { [MCP_CATALOG]: catalogOf(`${U}/mcp/server-card`) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, transport] } }, 'inconclusive'],
  ],
  'content.same-for-agents': [
    ['every agent gets the browser\'s page', {}, 'pass'],
    ['an edge product serves every agent a page of its own (another title and text)', { agent: () => ({ ...page({ title: 'Answers for assistants', text: 'A summary written for assistants: opening hours, delivery areas, returns and support, each in one sentence, with links to the full pages.' }), headers: { 'x-edgeoptimize-request-id': 'r-1' } }) }, 'fail'],
    ['one agent of many gets a page of its own: credit for the rest (25 of 26)', { agent: (t) => (t === 'GPTBot' ? page({ title: 'For GPTBot' }) : undefined) }, 'pass', 0.961],
    ['no agent passed: nothing to compare', { agent: () => ({ status: 403, body: 'no' }) }, 'inconclusive'],
  ],
  'discovery.agents-md': [
    ['absent (404): not applicable', {}, 'inconclusive'],
    ['a Markdown agents.md', { files: { '/agents.md': txt('# Shop for agents\n\n## MCP\n\n- https://shop.example/mcp\n', 'text/markdown; charset=utf-8') } }, 'pass'],
    ['free-form text without a heading, as text/plain', { files: { '/agents.md': txt('Agents: use the API at /api and send a descriptive User-Agent.\n') } }, 'pass'],
    ['the SPA shell with 200 is no agents.md: not applicable, never present', { files: { '/agents.md': shell } }, 'inconclusive'],
    ['a "not found" page of the site with 200', { files: { '/agents.md': page({ title: 'Page not found' }) } }, 'inconclusive'],
    ['Markdown served as text/html: half', { files: { '/agents.md': txt('# Shop for agents\n\nUse /api.\n', 'text/html') } }, 'pass', 0.5],
    ['Markdown served as application/octet-stream: half', { files: { '/agents.md': txt('# Shop for agents\n', 'application/octet-stream') } }, 'pass', 0.5],
    ['unfetchable', { files: { '/agents.md': transport } }, 'inconclusive'],
    ['challenged', { files: { '/agents.md': { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' } } }, 'inconclusive'],
  ],
  'trust.web-bot-auth': [
    ['signing off: not measured', {}, 'inconclusive'],
    ['signed and unsigned both served', { wba: { unsigned: () => undefined, signed: () => undefined } }, 'pass'],
    ['only the signed request is served', { wba: { unsigned: () => ({ status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' }), signed: () => undefined } }, 'pass'],
    ['the signature gets the request refused', { wba: { unsigned: () => undefined, signed: () => ({ status: 403, body: 'Forbidden' }) } }, 'fail'],
    ['both refused, even with Accept-Signature: says nothing about registered signers', { wba: { unsigned: () => ({ status: 403, headers: { 'accept-signature': 'sig1=("@authority");tag="web-bot-auth"' }, body: 'sign' }), signed: () => ({ status: 403, body: 'no' }) } }, 'inconclusive'],
  ],
};

const md = (vary = true) => ({ body: '# Shop\n\nProducts.\n', headers: { 'content-type': 'text/markdown; charset=utf-8', ...(vary ? { vary: 'Accept' } : {}) } });
const htmlVary = { ...page({}), headers: { 'content-type': 'text/html', vary: 'Accept' } };
const withAlternate = { ...page({ head: '<link rel="alternate" type="text/markdown" href="/index.md">' }), headers: { 'content-type': 'text/html', vary: 'Accept' } };
const challenged = { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' };

/** The preview rubric's revisions of current checks (same id), judged by their new definition. */
const REVISED_CASES: Record<string, Case[]> = {
  // issue 37 item 4: training-preference groups count, and each declaration names its draft.
  'policy.training-preference': [
    ['silent', {}, 'fail'],
    ['a __usage_ai-training group refusing training (the v1.1 definition fails this)', { robots: txt('User-agent: *\nAllow: /\n\nUser-agent: __usage_ai-training\nDisallow: /\n') }, 'pass'],
    ['a usage group for another category only', { robots: txt('User-agent: *\nAllow: /\n\nUser-agent: __usage_search\nAllow: /\n') }, 'fail'],
    ['Content-Usage header with train-ai', { home: { ...page({}), headers: { 'content-usage': 'train-ai=n' } } }, 'pass'],
    ['GPTBot group', { robots: txt('User-agent: GPTBot\nDisallow: /\n') }, 'pass'],
    ['robots unreadable, nothing else', { robots: transport }, 'inconclusive'],
  ],
  // issue 37 item 1: the catalog first; a card only at a path the extension rejects earns half and says so.
  'discovery.mcp-card': [
    ['absent', {}, 'fail'],
    ['catalog listing a card at <endpoint>/server-card', { files: { [MCP_CATALOG]: catalogOf(`${U}/mcp/server-card`) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, json(CARD_EXAMPLE('valid-minimal'))] } }, 'pass'],
    ['AI Catalog entry with the card inline', { files: { '/.well-known/ai-catalog.json': json({ specVersion: '1.0', entries: [{ identifier: 'urn:air:shop:mcp:c', type: 'application/mcp-server-card+json', data: CARD_EXAMPLE('valid-minimal') }] }) } }, 'pass'],
    ['legacy path only: half credit', { files: { '/.well-known/mcp/server-card.json': json({ name: 'x', remotes: [{ url: `${U}/mcp` }] }) } }, 'pass', 0.5],
    ['SEP-1649 manifest at /.well-known/mcp.json only: half credit', { files: { '/.well-known/mcp.json': json({ serverInfo: { name: 'shop', version: '1' }, transport: { type: 'streamable-http', endpoint: '/mcp' } }) } }, 'pass', 0.5],
    ['catalog lists a card that is absent, nothing else', { files: { [MCP_CATALOG]: catalogOf(`${U}/mcp/server-card`) }, followups: { [`mcp-card:${U}/mcp/server-card`]: [`${U}/mcp/server-card`, { status: 404, body: '' }] } }, 'fail'],
    ['catalog entries of another type are ignored', { files: { [MCP_CATALOG]: json({ specVersion: 'draft', entries: [{ identifier: 'urn:air:shop:api:x', type: 'application/json', url: `${U}/x` }] }) } }, 'fail'],
    ['unfetchable', { files: { '/.well-known/mcp.json': transport } }, 'inconclusive'],
  ],
  // rubric-v1.2-preview follows up to 10 links: dead is a 4xx or 5xx, and a .md link must give Markdown.
  'discovery.llms-txt-links': [
    ['all resolve', { files: { '/llms.txt': eight }, followups: followed({}) }, 'pass'],
    ['no llms.txt', {}, 'skipped'],
    ['3 dead of 8 (404, 410, 503): 5 of 8 resolve', { files: { '/llms.txt': eight }, followups: followed({ f: { status: 404, body: '' }, g: { status: 410, body: '' }, h: { status: 503, body: '' } }) }, 'fail', 0.499],
    ['an app shell where a .md link promised Markdown does not resolve', { files: { '/llms.txt': eight }, followups: followed({ 'b.md': shell }) }, 'fail', 0.499],
    ['a link llms.txt calls Markdown, answered with HTML, does not resolve', { files: { '/llms.txt': txt(`# Docs\n\n- [A](${U}/a): the API reference in Markdown\n- [B](${U}/b)\n`) }, followups: followed({ a: page({ title: 'API' }) }, ['a', 'b']) }, 'fail', 0.499],
    ['an HTML page at a plain link resolves; a "not found" page with 200 does not', { files: { '/llms.txt': eight }, followups: followed({ c: page({ title: 'Page not found' }) }) }, 'fail', 0.499],
    ['one of ten not resolving still passes with its credit', { files: { '/llms.txt': ten }, followups: followed({ j: { status: 404, body: '' } }, TEN) }, 'pass', 0.9],
    ['denials and transport errors are undecided, not dead', { files: { '/llms.txt': eight }, followups: followed({ a: { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '' }, c: transport }) }, 'pass'],
  ],
  'content.markdown-negotiation': [
    ['HTML to every agent, no alternate', {}, 'fail'],
    ['Markdown to Claude Code and Cursor, Vary: Accept on both answers', { home: htmlVary, products: { 'claude-code': md(), cursor: md() } }, 'pass'],
    ['Markdown to both, but the HTML answer lacks Vary: Accept', { products: { 'claude-code': md(), cursor: md() } }, 'pass', 0.7],
    ['Markdown to both, but the Markdown answers lack Vary: Accept', { home: htmlVary, products: { 'claude-code': md(false), cursor: md(false) } }, 'pass', 0.7],
    ['Markdown to Claude Code only (Cursor\'s q-values not honoured)', { home: htmlVary, products: { 'claude-code': md() } }, 'pass', 0.5],
    ['Markdown served as text/plain', { home: htmlVary, products: { 'claude-code': { body: '# Shop\n', headers: { 'content-type': 'text/plain', vary: 'Accept' } }, cursor: { body: '# Shop\n', headers: { 'content-type': 'text/plain', vary: 'Accept' } } } }, 'pass', 0.5],
    ['only the alternate leads to Markdown (as Codex follows it)', { home: withAlternate, followups: { 'markdown:codex-cli': [`${U}/index.md`, md(false)] } }, 'fail', 0.3],
    ['negotiation works but the alternate is a 404', { home: withAlternate, products: { 'claude-code': md(), cursor: md() }, followups: { 'markdown:codex-cli': [`${U}/index.md`, { status: 404, body: 'gone' }] } }, 'pass', 0.7],
    ['the Markdown requests could not be completed', { products: { 'claude-code': transport, cursor: transport } }, 'inconclusive'],
    ['the Markdown-asking agents are challenged', { products: { 'claude-code': challenged, cursor: challenged } }, 'inconclusive'],
  ],
};

describe('rubric checks over recorded evidence', () => {
  const tables: Array<[CheckDefinition, Case[]]> = [...CURRENT, ...V12_ADDED, ...V13_ADDED].map((d) => [d, CASES[d.id] ?? []] as [CheckDefinition, Case[]]);
  for (const d of V12_REVISED) tables.push([{ ...d, name: `${d.name} (rubric-v1.2)` }, REVISED_CASES[d.id] ?? []]);
  for (const [def, cases] of tables) {
    test(`check ${def.id}${def.name.endsWith('(rubric-v1.2)') ? ' (v1.2 revision)' : ''} has table cases`, () => assert.ok(cases.length >= 2, `${def.id} needs at least two cases`));
    for (const [name, given, want, credit] of cases) {
      test(`check ${def.id}${def.name.endsWith('(rubric-v1.2)') ? ' (v1.2)' : ''}: ${name} -> ${want}${credit !== undefined ? ` (credit ${credit})` : ''}`, () => {
        const out = def.evaluate(evidence(given));
        assert.equal(out.status, want, out.detail);
        if (credit !== undefined) assert.ok(out.credit !== undefined && Math.abs(out.credit / 1000 - credit) < 0.002, `credit ${out.credit} (${out.detail})`);
        else if (want === 'pass' || want === 'fail') assert.equal(out.credit, undefined, `unexpected partial credit ${out.credit}: ${out.detail}`);
      });
    }
  }
  test('checks: every decided outcome of a check rubric-v1.2 added names the generation of its standard', () => {
    for (const def of V12_ADDED) {
      for (const [name, given] of CASES[def.id] ?? []) {
        const out = def.evaluate(evidence(given));
        if (out.status === 'pass' || out.status === 'fail') assert.ok(out.generation, `${def.id}: ${name}`);
      }
    }
  });
  test('checks: no table case names an unknown check id', () => {
    const ids = new Set([...CURRENT, ...V12_ADDED, ...V13_ADDED].map((c) => c.id));
    for (const id of Object.keys(CASES)) assert.ok(ids.has(id), id);
    for (const id of Object.keys(REVISED_CASES)) assert.ok(V12_REVISED.some((d) => d.id === id), id);
  });
});
