// Loads a module on first use, once. The MCP server (with the SDK) and the MCP-server
// scanner are a third of the service's start-up imports and are needed by few requests,
// so their handlers load them when first called (cold start is a product figure).
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
