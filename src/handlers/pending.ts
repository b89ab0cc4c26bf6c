// Operations whose issues have not landed yet answer with the contract's own errors,
// never with a 200 that claims work that was not done. Each moves to its own file when
// its issue lands, and this file shrinks to nothing.
import { AppError } from '../errors.ts';
import type { Handler } from './types.ts';

const notYet = 'this instance does not run this operation yet';

export const scanMcp: Handler<'scanMcp'> = () => {
  throw new AppError('SCAN_FAILED', { error: 'The scan could not complete.', detail: notYet });
};
export const postMcp: Handler<'postMcp'> = (_req, res) => {
  res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32601, message: notYet } });
};
export const getMcp: Handler<'getMcp'> = () => {
  throw new AppError('NOT_ACCEPTABLE', { error: 'GET /mcp only serves an SSE stream.', hint: 'Send JSON-RPC with POST /mcp; see /.well-known/mcp.json.' });
};
