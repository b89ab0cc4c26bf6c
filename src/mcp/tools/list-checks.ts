/** list_checks: the machine-readable check catalog, like GET /api/checks. */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpDeps } from '../types.ts';
import { RUBRICS } from '../../scanner/rubrics.ts';
import { okResult } from './result.ts';

export const name = 'list_checks';

// One optional parameter; additionalProperties false, so a misspelt one is an error, not ignored.
export const inputSchema = z.strictObject({
  rubric: z.enum(RUBRICS.map((r) => r.version) as [string, ...string[]]).optional()
    .describe('A published rubric version: the current one when absent, or the preview of the next (as GET /api/checks?rubric=).'),
});

export const outputSchema = z.looseObject({
  rubricVersion: z.string(),
  checks: z.array(z.looseObject({ id: z.string() })),
});

export function register(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, {
    title: 'List the checks',
    description: 'Returns the check catalog: every scored check with its id, category, weight, why it matters and how to fix it, plus the rubric version. With rubric set to the preview version, the checks of the next rubric and what it changes.',
    inputSchema,
    outputSchema,
    annotations: { title: 'List the checks', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, async ({ rubric }) => okResult(deps.listChecks(rubric) as Record<string, unknown>));
}
