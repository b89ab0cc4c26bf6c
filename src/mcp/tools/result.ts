import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceErrorBody, ServiceResult } from '../types.ts';

/**
 * Tool results carry the same JSON twice: as `structuredContent` (checked by the
 * SDK against the tool's outputSchema) and as a text block, because the spec asks
 * tools with structured output to serialise it for clients that predate it.
 */
export function okResult(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * Failures of the service (bad lead, rate limit, unreachable site) are tool
 * errors, not protocol errors: the model must see them to correct itself
 * (spec 2025-11-25 server/tools#error-handling, SEP-1303).
 */
export function errorResult(status: number, body: ServiceErrorBody): CallToolResult {
  const lines = [`${body.error} (HTTP ${status})`];
  if (body.hint) lines.push(`Hint: ${body.hint}`);
  if (typeof body.retryAfterSeconds === 'number') lines.push(`Retry after ${body.retryAfterSeconds} seconds.`);
  if (body.detail) lines.push(`Detail: ${body.detail}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}

export function fromService(result: ServiceResult): CallToolResult {
  return result.ok ? okResult(result.body) : errorResult(result.status, result.body);
}
