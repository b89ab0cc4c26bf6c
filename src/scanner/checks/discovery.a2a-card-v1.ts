// Standard: A2A agent card v1.0 (a2aproject/A2A specification/a2a.proto): supportedInterfaces replaces v0.3's top-level url.
import { insteadNote } from '../file-judge.ts';
import { fileState, parseJson } from '../evidence.ts';
import { ALL, fail, inconclusive, matched, pass, type CheckDefinition, type Outcome } from './define.ts';
import { signatureSummary } from '../a2a-signatures.ts';
import type { ScanEvidence } from '../evidence.ts';

const PATH = '/.well-known/agent-card.json';
const BINDINGS = new Set(['JSONRPC', 'GRPC', 'HTTP+JSON']);

/** What a card lacks against the v1.0 shape, in field order. */
export function a2aV1Problems(card: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const f of ['name', 'description', 'version'] as const) if (typeof card[f] !== 'string') out.push(`${f} is missing`);
  const ifaces = card.supportedInterfaces;
  if (!Array.isArray(ifaces) || ifaces.length === 0) out.push('supportedInterfaces is missing');
  else ifaces.forEach((i: Record<string, unknown> | null, n) => {
    if (!i || typeof i.url !== 'string') out.push(`supportedInterfaces[${n}].url is missing`);
    else if (!BINDINGS.has(String(i.protocolBinding))) out.push(`supportedInterfaces[${n}].protocolBinding is not JSONRPC, GRPC or HTTP+JSON`);
    else if (typeof i.protocolVersion !== 'string') out.push(`supportedInterfaces[${n}].protocolVersion is missing`);
  });
  if (!card.capabilities || typeof card.capabilities !== 'object') out.push('capabilities is missing');
  for (const f of ['defaultInputModes', 'defaultOutputModes'] as const) if (!Array.isArray(card[f])) out.push(`${f} is missing`);
  const skills = card.skills;
  if (!Array.isArray(skills)) out.push('skills is missing');
  else if (skills.some((s: Record<string, unknown> | null) => !s || typeof s.id !== 'string' || typeof s.name !== 'string' || typeof s.description !== 'string' || !Array.isArray(s.tags))) out.push('a skill lacks id, name, description or tags');
  return out;
}

/**
 * The card's shape outcome with its signature state (A2A v1.0 §8.4): `signature verified`, `unsigned`,
 * or `signature invalid`, which fails the card whatever its shape (a client that verifies rejects it).
 * A key set that could not be fetched leaves the shape's outcome and says so.
 */
function withSignature(ev: ScanEvidence, o: Outcome): Outcome {
  const sig = signatureSummary(ev);
  if (sig.state === 'invalid') return { ...o, status: 'fail', detail: `${sig.text}; ${o.detail}` };
  return { ...o, detail: `${o.detail}; ${sig.text}` };
}

export const check: CheckDefinition = {
  id: 'discovery.a2a-card-v1', name: 'The A2A agent card has the v1.0 shape', category: 'discovery', weight: 1, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'A2A protocol v1.0 agent card (https://github.com/a2aproject/A2A/blob/main/specification/a2a.proto)',
  why: 'A2A v1.0 made supportedInterfaces required and dropped v0.3\'s top-level url, preferredTransport and protocolVersion: a v1.0 client cannot reach an agent whose card still has the v0.3 shape (a2aproject/A2A specification/a2a.proto, AgentCard).',
  fix: 'Move url, preferredTransport and protocolVersion into supportedInterfaces[{url, protocolBinding, protocolVersion}] and list name, description, version, capabilities, defaultInputModes, defaultOutputModes and skills. If you sign the card (A2A v1.0 §8.4), sign its JCS form without `signatures` and publish the key at the protected header\'s jku.',
  evaluate(ev) {
    const v = ev.files[PATH];
    const st = fileState(v);
    if (st === 'unknown') return inconclusive(`${PATH} could not be fetched`);
    const card = parseJson(v);
    if (st === 'absent') return inconclusive(`no A2A agent card${insteadNote(v)}: not applicable`);
    if (!card || typeof card !== 'object' || Array.isArray(card)) return fail(`${PATH} is not a JSON object`);
    const c = card as Record<string, unknown>;
    const legacy = ['url', 'preferredTransport', 'protocolVersion'].filter((f) => f in c);
    if (legacy.length && !('supportedInterfaces' in c)) return withSignature(ev, matched('A2A v0.3 (legacy)', fail(`the card has the v0.3 shape (top-level ${legacy.join(', ')}); v1.0 clients read supportedInterfaces`)));
    const problems = a2aV1Problems(c);
    if (problems.length) return withSignature(ev, matched('A2A v1.0', fail(problems.slice(0, 3).join('; '))));
    return withSignature(ev, matched('A2A v1.0', pass(`v1.0 card with ${(c.supportedInterfaces as unknown[]).length} interface(s)${legacy.length ? ` (v0.3 leftovers ${legacy.join(', ')} are ignored by v1.0 clients)` : ''}`)));
  },
};
