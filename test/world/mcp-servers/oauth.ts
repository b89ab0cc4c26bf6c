/**
 * A server behind OAuth: every /mcp request without a token gets the SDK's
 * own bearer middleware answer (401 + WWW-Authenticate resource_metadata),
 * and RFC 9728 metadata is published at the path-suffixed well-known URL.
 */
import express from 'express';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';

export function oauth(host: string): express.Express {
  const app = express();
  const prmUrl = `https://${host}/.well-known/oauth-protected-resource/mcp`;
  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
    res.json({ resource: `https://${host}/mcp`, authorization_servers: [`https://auth.${host}`], scopes_supported: ['mcp:tools'] });
  });
  app.get('/.well-known/mcp.json', (_req, res) => {
    res.json({ version: '1.0', protocolVersion: '2025-11-25', serverInfo: { name: 'oauth', version: '1.0.0' },
      transport: { type: 'streamable-http', endpoint: '/mcp' }, capabilities: { tools: {} }, authentication: { required: true, schemes: ['oauth2'] } });
  });
  const verifier = { verifyAccessToken: async () => { throw new Error('no token is ever valid here'); } };
  app.all('/mcp', requireBearerAuth({ verifier, resourceMetadataUrl: prmUrl }), (_req, res) => { res.status(500).end(); });
  return app;
}
