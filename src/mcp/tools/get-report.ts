/** get_report: fetches an archived report by id, like GET /r/{scanId}. */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpDeps } from '../types.ts';
import { errorResult, okResult } from './result.ts';

export const name = 'get_report';

export const inputSchema = z.object({
  scanId: z.uuid().describe('The scanId returned by scan_site (or the id at the end of a report permalink).'),
});

// Site reports and MCP-server reports share no required field beyond being objects.
export const outputSchema = z.looseObject({
  scanId: z.string().optional(),
  kind: z.string().optional(),
});

export function register(server: McpServer, deps: McpDeps): void {
  server.registerTool(name, {
    title: 'Fetch an archived report',
    description: 'Returns the archived, point-in-time report for a scanId, as JSON. Ephemeral scans have no archived report.',
    inputSchema,
    outputSchema,
    annotations: { title: 'Fetch a report', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, async ({ scanId }) => {
    try {
      const report = await deps.getReport(scanId);
      if (report === null) {
        return errorResult(404, { error: `No archived report with id ${scanId}.`, hint: 'Check the id; ephemeral scans are never archived.' });
      }
      return okResult(report as Record<string, unknown>);
    } catch {
      return errorResult(500, { error: 'The report store could not be read.' });
    }
  });
}
