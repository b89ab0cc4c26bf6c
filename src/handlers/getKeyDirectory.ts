// GET /.well-known/http-message-signatures-directory: the public key our Web Bot Auth requests
// are signed with, so a site's edge can verify that a request claiming to be agent-readiness is.
import { KEY_DIRECTORY_MEDIA_TYPE, keyDirectory } from '../signing/keys.ts';
import type { Handler } from './types.ts';

export const getKeyDirectory: Handler<'getKeyDirectory'> = async (_req, res, ctx) => {
  const key = await ctx.services.probeKey();
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.type(KEY_DIRECTORY_MEDIA_TYPE).json(keyDirectory(key));
};
