/** Public surface of our MCP server; the app's handlers call handleMcpPost / handleMcpGet. */
export { handleMcpGet, handleMcpPost, refuseForeignHost, MCP_BODY_LIMIT } from './router.ts';
export { buildMcpManifest } from './manifest.ts';
export { dispatch } from './dispatch.ts';
export type { McpDeps, ServiceResult, ScanSiteInput, LeadInput, CallContext } from './types.ts';
export { SERVER_VERSION, SUPPORTED_VERSIONS, MODERN_VERSION, LEGACY_VERSIONS } from './types.ts';
