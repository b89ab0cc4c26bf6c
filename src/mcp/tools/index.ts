/** The ordered tool registry: tools/list, the manifest and the tests all derive from it. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallContext, McpDeps } from '../types.ts';
import * as scanSite from './scan-site.ts';
import * as getReport from './get-report.ts';
import * as listChecks from './list-checks.ts';

interface ToolModule {
  name: string;
  register(server: McpServer, deps: McpDeps, ctx: CallContext): void;
}

export const TOOLS: readonly ToolModule[] = [scanSite, getReport, listChecks];
export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));
