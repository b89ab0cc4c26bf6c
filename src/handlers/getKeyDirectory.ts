// GET /.well-known/http-message-signatures-directory: the public key our Web Bot Auth requests
// are signed with, so a site's edge can verify that a request claiming to be agent-readiness is.
// The response is itself signed (draft-ietf-webbotauth-httpsig-protocol-01 Appendix B.1): see
// src/signing/directory.ts. The body is sent as the exact bytes the Content-Digest was made over.
import { DIRECTORY_SIGNATURE_MS, signedKeyDirectory } from '../signing/directory.ts';
import { KEY_DIRECTORY_MEDIA_TYPE } from '../signing/keys.ts';
import { AGENT_CARD_PATH } from '../signing/agent-card.ts';
import type { Handler } from './types.ts';

export const getKeyDirectory: Handler<'getKeyDirectory'> = async (_req, res, ctx) => {
  const key = await ctx.services.probeKey();
  const created = ctx.now();
  const { body, headers } = await signedKeyDirectory([key], ctx.config.baseUrl, { created, expires: new Date(created.getTime() + DIRECTORY_SIGNATURE_MS) });
  res.setHeader('Cache-Control', 'public, max-age=86400');
  // Who signs with these keys: our Signature Agent Card (draft-meunier-webbotauth-registry-04 §4 fixes no path, so we link it).
  res.setHeader('Link', `<${AGENT_CARD_PATH}>; rel="describedby"; type="application/json"`);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // §5.5.1: served with this media type at the well-known URI; a Buffer keeps Express from adding a charset.
  res.type(KEY_DIRECTORY_MEDIA_TYPE).send(Buffer.from(body));
};
