// Agent discovery in DNS (shared/research/discovery-2026-12.md §2), answered by the world's DoH
// resolver (../doh.ts). Record shapes: AID `v=aid2;u=…;p=…` (aid.agentcommunity.org v2.0.0), ANS
// `v=ans1; version=…; p=…; mode=direct; url=…` (draft-narajala-courtney-ansv2-00), x402 a TXT URL
// (draft-jeftovic-x402-dns-discovery-00), MCP a TXT with the endpoint URL
// (draft-morrison-mcp-dns-discovery-01; its exact key names are unconfirmed, the scanner reads it
// tolerantly), DNS-AID an SVCB ServiceMode record (draft-mozleywilliams-dnsop-dnsaid-00).
// Fidelity: synthetic sites, record syntax as the cited drafts give it.
import type { Scenario } from '../site.ts';

const json = (v: unknown) => ({ type: 'application/json', body: JSON.stringify(v) });
const agentCard = (url: string) => json({
  name: 'Example agent', description: 'Answers product questions', version: '1.0.0',
  supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
  skills: [{ id: 'products', name: 'Products', description: 'Finds products', tags: ['shop'] }],
});
const mcpCard = (url: string) => json({ $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json', name: 'com.example/catalog', version: '1.0.0', description: 'Catalog tools', remotes: [{ type: 'streamable-http', url }] });

const RECORDS = {
  svcb: { _agents: [{ priority: 1, target: '{domain}', alpn: ['h2', 'a2a'], port: 443 }] },
  txt: {
    _agent: ['v=aid2;u=https://{domain}/a2a;p=a2a'],
    _ans: ['v=ans1; version=1.0.0; p=a2a; mode=direct; url=https://{domain}/a2a'],
    _x402: ['https://{domain}/.well-known/x402'],
    _mcp: ['v=mcp1; url=https://{domain}/mcp; transport=streamable-http'],
  },
};

export const DNS_SCENARIOS: Scenario[] = [
  {
    name: 'dns-records', about: 'Every kind of DNS discovery record (_agents SVCB; _agent, _ans, _x402, _mcp TXT), each pointing where the well-known files do.',
    files: { '/.well-known/agent-card.json': agentCard('https://{domain}/a2a'), '/.well-known/mcp/server-card.json': mcpCard('https://{domain}/mcp') },
    dns: RECORDS,
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.dns-records': ['pass', 'DNS-AID -00 (SVCB ServiceMode); AID v2 (v=aid2); ANS v2 (v=ans1, version 1.0.0); x402 DNS (-00 TXT URL); MCP DNS -01 (v=mcp1)'] },
      previewDetails: { 'discovery.dns-records': /_agent AID v2 \(v=aid2\) a2a -> https:\/\/dns-records\.world-fixtures\.com\/a2a.*_mcp MCP DNS -01 \(v=mcp1\) mcp -> https:\/\/dns-records\.world-fixtures\.com\/mcp/ },
    },
  },
  {
    name: 'dns-conflict', about: 'DNS names an MCP endpoint the server card does not list (and the card one DNS does not name); AID is published, ANS is NODATA.',
    files: { '/.well-known/agent-card.json': agentCard('https://{domain}/a2a'), '/.well-known/mcp/server-card.json': mcpCard('https://{domain}/mcp') },
    dns: { txt: { _agent: ['v=aid2;u=https://{domain}/a2a;p=a2a'], _mcp: ['v=mcp1; url=https://mcp.{domain}/v2/mcp'] }, svcb: { _ans: [{ priority: 1, target: '.' }] } },
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.dns-records': ['fail', 'AID v2 (v=aid2); MCP DNS -01 (v=mcp1)'] },
      previewDetails: { 'discovery.dns-records': /_mcp advertises the MCP endpoint https:\/\/mcp\.dns-conflict\.world-fixtures\.com\/v2\/mcp, which \/\.well-known\/mcp\/server-card\.json does not list.*server-card\.json lists the MCP endpoint https:\/\/dns-conflict\.world-fixtures\.com\/mcp, which no MCP record in DNS advertises.*_ans no record \(NODATA\).*_x402 NXDOMAIN/ },
    },
  },
  {
    name: 'dns-doh-failure', about: 'The resolver fails every lookup of this site (HTTP 503): inconclusive, never a fail.',
    dns: { failure: 'http', txt: RECORDS.txt },
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.dns-records': ['inconclusive'] },
      previewDetails: { 'discovery.dns-records': /DNS lookups through https:\/\/dns\.world-fixtures\.com\/dns-query failed: _agents SVCB \(the resolver answered HTTP 503\)/ },
    },
  },
  {
    name: 'dns-servfail', about: 'The resolver answers SERVFAIL for this site: a failed lookup, inconclusive.',
    dns: { failure: 'servfail', txt: RECORDS.txt },
    expect: {
      headline: 'open',
      previewChecks: { 'discovery.dns-records': ['inconclusive'] },
      previewDetails: { 'discovery.dns-records': /failed: _agents SVCB \(the resolver answered RCODE SERVFAIL\)/ },
    },
  },
];
