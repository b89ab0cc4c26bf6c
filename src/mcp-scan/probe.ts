/**
 * The scanner's only door to the network: serial requests through the guarded
 * egress, a hard request budget and deadline, fixed headers (never any
 * credential), and each answer reduced to an Exchange (mcp.md §9 probe rules).
 */
import type { ProbeRequest, ProbeResult } from '../net/egress.ts';
import { parseSse, sseWatcher } from './sse.ts';
import type { Exchange, McpEgress, RpcReply, Verdict } from './types.ts';

export interface ProberOptions {
  egress: McpEgress;
  userAgent: string;
  maxRequests: number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Aborts every probe once the whole scan's budget is spent. */
  deadline: AbortSignal;
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

export class Prober {
  count = 0;
  private readonly o: ProberOptions;

  constructor(o: ProberOptions) {
    this.o = o;
  }

  get remaining(): number {
    return Math.max(0, this.o.maxRequests - this.count);
  }

  get exhausted(): boolean {
    return this.count >= this.o.maxRequests || this.o.deadline.aborted;
  }

  /** POST a JSON-RPC body; an SSE reply is read only until the response to `expectId`. */
  post(url: string, label: string, body: string, expectId: unknown, headers: Record<string, string> = {}): Promise<Exchange> {
    return this.send(label, expectId, {
      url, method: 'POST', body,
      headers: { Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', ...headers },
      ...(expectId !== undefined ? { stopWhen: sseWatcher((e) => findReply([e], expectId) !== null) } : {}),
    });
  }

  /** GET, optionally stopping once an SSE event of the given type has arrived. */
  get(url: string, label: string, accept: string, opts: { timeoutMs?: number; stopOnEvent?: string; firstChunk?: boolean; headers?: Record<string, string> } = {}): Promise<Exchange> {
    const stopOnEvent = opts.stopOnEvent;
    const stopWhen = opts.firstChunk ? () => true
      : stopOnEvent ? sseWatcher((e) => e.event === stopOnEvent) : undefined;
    return this.send(label, undefined, {
      url, method: 'GET', headers: { ...opts.headers, Accept: accept },
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      ...(stopWhen ? { stopWhen } : {}),
    });
  }

  private async send(label: string, expectId: unknown, req: Partial<ProbeRequest> & { url: string }): Promise<Exchange> {
    if (this.exhausted) return skipped(label);
    this.count += 1;
    const result = await this.o.egress.fetch({
      timeoutMs: this.o.timeoutMs, maxBodyBytes: this.o.maxBodyBytes, maxRedirects: 3, signal: this.o.deadline,
      ...req,
      headers: { 'User-Agent': this.o.userAgent, ...req.headers },
    });
    return toExchange(label, result, expectId);
  }
}

function skipped(label: string): Exchange {
  return { label, verdict: 'skipped', status: null, headers: {}, contentType: '', text: '', isSse: false, rpc: null, errorCode: 'BUDGET' };
}

export function toExchange(label: string, r: ProbeResult, expectId: unknown): Exchange {
  if (!r.ok) {
    const verdict: Verdict = r.errorCode === 'TIMEOUT' || r.errorCode === 'ABORTED' ? 'timeout' : 'unreachable';
    return { label, verdict, status: null, headers: {}, contentType: '', text: '', isSse: false, rpc: null, errorCode: r.errorCode };
  }
  const contentType = (r.headers['content-type'] ?? '').toLowerCase();
  const text = r.body.toString('utf8');
  const isSse = contentType.includes('text/event-stream');
  const candidates = isSse ? parseSse(text).filter((e) => e.event === 'message').map((e) => safeJson(e.data)) : [safeJson(text)];
  const replies = candidates.filter(isRpcReply);
  const rpc = replies.find((m) => m.id === expectId) ?? replies[0] ?? null;
  return {
    label, status: r.status, headers: r.headers, contentType, text, isSse, rpc, errorCode: null,
    verdict: verdictOf(r.status, r.headers, contentType, text, rpc, expectId),
  };
}

function verdictOf(status: number, headers: Record<string, string>, contentType: string, text: string, rpc: RpcReply | null, expectId: unknown): Verdict {
  // Any 401 means "credentials required": policy, whatever the body says (mcp.md §5).
  if (status === 401) return 'policy';
  if (rpc && rpc.id === expectId && expectId !== undefined) return 'rpc';
  if (status === 403 && /^\s*bearer\b/i.test(headers['www-authenticate'] ?? '')) return 'policy';
  if (isChallengePage(status, headers, contentType, text)) return 'blocked';
  return rpc ? 'rpc-other' : 'http';
}

const CHALLENGE_MARKERS = /cf-chl|challenge-platform|just a moment|attention required|captcha|_incapsula_|px-captcha|ddos-guard|access denied|request unsuccessful|bot protection/i;

/** A WAF or bot-challenge page: never evidence about the MCP server behind it. */
export function isChallengePage(status: number, headers: Record<string, string>, contentType: string, text: string): boolean {
  if (headers['cf-mitigated'] === 'challenge') return true;
  if (![403, 429, 503].includes(status)) return false;
  return status === 429 || contentType.includes('text/html') || CHALLENGE_MARKERS.test(text.slice(0, 4096));
}

function findReply(events: ReturnType<typeof parseSse>, id: unknown): RpcReply | null {
  for (const e of events) {
    const m = safeJson(e.data);
    if (isRpcReply(m) && m.id === id) return m;
  }
  return null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRpcReply(m: unknown): m is RpcReply {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  const o = m as Record<string, unknown>;
  return o.jsonrpc === '2.0' && 'id' in o && (typeof o.result === 'object' || typeof o.error === 'object');
}
