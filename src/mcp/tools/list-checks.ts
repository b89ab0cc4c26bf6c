/** list_checks: the machine-readable check catalog, like GET /api/checks. */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpDeps } from '../types.ts';
import { okResult } from './result.ts';

export const name = 'list_checks';

// No parameters: additionalProperties false, as the spec recommends for parameterless tools.
export const inputSchema = z.strictObject({});

export const outputSchema = z.looseObject({
  rubricVersion: z.string(),
  checks: z.array(z.looseObject({ id: z.string() })),
});

export function register(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, {
    title: 'List the checks',
    description: 'Returns the check catalog: every scored check with its id, category, weight, why it matters and how to fix it, plus the rubric version.',
    inputSchema,
    outputSchema,
    annotations: { title: 'List the checks', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, async () => okResult(deps.listChecks() as Record<string, unknown>));
}
