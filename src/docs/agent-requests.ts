// The methodology's list of how each agent arrives, rendered from the roster data itself (like the
// checks table from the registry), so the page cannot say one thing while the probes send another.
import { controlRequest, getRoster, productArrivals, type ArrivalRequest } from '../scanner/roster.ts';
import { ROSTER_VERSION } from '../scanner/versions.ts';

function block(title: string, r: ArrivalRequest): string[] {
  const by = new Map<string, string[]>();
  for (const [name, b] of Object.entries(r.basis)) by.set(b, [...(by.get(b) ?? []), name]);
  const basis = [...by].map(([b, names]) => `${b}: ${names.join(', ')}`).join('; ');
  return [
    `#### ${title}`,
    '',
    '```http',
    ...r.headers.map(([n, v]) => `${n}: ${v}`),
    '```',
    '',
    `Basis, ${basis}; order ${r.order === 'captured' ? 'as captured' : 'ours'}. ${r.note}`,
    '',
    `Sources: ${r.sources.map((s) => (s.url.startsWith('https://') ? `[${s.what}](${s.url})` : `${s.what} (\`${s.url}\`)`)).join('; ')}.`,
    '',
  ];
}

/** Every request header of the browser control, each probeable agent and each product, in send order, with basis and sources. */
export function agentRequestsSection(version: string = ROSTER_VERSION): string {
  const control = controlRequest(version);
  if (!control) return `${version} sent each agent's User-Agent with one fixed Accept, Accept-Language and Accept-Encoding.`;
  const lines = [
    `Each probe of ${version} sends the whole request below, header by header in the order shown and with the case shown, after the `
      + '`host` and `connection: keep-alive` lines our HTTP client (undici, HTTP/1.1) writes first. Basis: *documented* on the operator\'s page, '
      + '*captured* from a public capture of the real request, *corrected* (a capture adjusted as its note says), or *default*: not published, so we state what we send instead.',
    '',
    ...block('The browser control (a current stable Chrome)', control),
  ];
  for (const a of getRoster(version)) {
    if (a.tokenOnly || !a.request) continue;
    lines.push(...block(`${a.token} (${a.vendor}, ${a.intent}${a.contextOnly ? ', context only' : ''})`, a.request));
  }
  for (const p of productArrivals(version)) {
    const how = p.asks === 'accept' ? 'asked for Markdown with its own Accept' : 'follows the page\'s Markdown alternate';
    lines.push(...block(`${p.product} (${p.vendor}${p.token ? `, as ${p.token}` : ''}; ${how})`, p.request));
  }
  return lines.join('\n').trimEnd();
}
