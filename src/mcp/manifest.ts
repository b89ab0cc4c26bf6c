/**
 * /.well-known/mcp.json, in the SEP-1649 shape (mcp.md §6). The tool list is
 * produced by running tools/list through the real server, so the manifest can
 * never disagree with what the endpoint answers.
 */
import { runThroughSdk, SERVER_INFO } from './server.ts';
import { INSTRUCTIONS, LEGACY_VERSIONS, MODERN_VERSION, SUPPORTED_VERSIONS, type McpDeps } from './types.ts';

const noService = async (): Promise<never> => { throw new Error('manifest build must not call services'); };

export async function buildMcpManifest(deps: Pick<McpDeps, 'baseUrl'>): Promise<Record<string, unknown>> {
  const stub: McpDeps = { baseUrl: deps.baseUrl, scanSite: noService, getReport: noService, listChecks: () => ({}) };
  const reply = await runThroughSdk({ kind: 'request', id: 0, method: 'tools/list' }, stub, { clientIp: '' });
  const tools = (reply.result as { tools?: unknown[] } | undefined)?.tools ?? [];
  const endpoint = new URL('/mcp', deps.baseUrl).toString();
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
    version: '1.0',
    protocolVersion: LEGACY_VERSIONS[0],
    supportedProtocolVersions: [...SUPPORTED_VERSIONS],
    // Top-level name and url as well as serverInfo, so registries and discovery crawlers that read either shape find us.
    name: SERVER_INFO.name,
    url: endpoint,
    serverInfo: { name: SERVER_INFO.name, title: SERVER_INFO.title, version: SERVER_INFO.version },
    description: SERVER_INFO.description,
    instructions: INSTRUCTIONS,
    documentationUrl: new URL('/methodology.md', deps.baseUrl).toString(),
    transport: { type: 'streamable-http', endpoint: '/mcp', url: endpoint, stateless: true },
    remotes: [{ type: 'streamable-http', url: endpoint, supportedProtocolVersions: [MODERN_VERSION, ...LEGACY_VERSIONS] }],
    capabilities: { tools: {} },
    // The service has no credentials for callers (service spec "Authentication" rule 3).
    authentication: { type: 'none', required: false },
    tools,
  };
}
