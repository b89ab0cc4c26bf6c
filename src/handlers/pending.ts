// Operations whose issues have not landed yet answer with the contract's own errors,
// never with a 200 that claims work that was not done. Each moves to its own file when
// its issue lands, and this file shrinks to nothing.
import { AppError } from '../errors.ts';
import type { Handler } from './types.ts';

const notYet = 'this instance does not run this operation yet';

export const scanSite: Handler<'scanSite'> = () => {
  throw new AppError('SCAN_FAILED', { error: 'The scan could not complete.', detail: notYet });
};
export const scanMcp: Handler<'scanMcp'> = () => {
  throw new AppError('SCAN_FAILED', { error: 'The scan could not complete.', detail: notYet });
};
export const getReport: Handler<'getReport'> = () => {
  throw new AppError('NOT_FOUND', { error: 'No archived report with that id.' });
};
export const attachCliVantage: Handler<'attachCliVantage'> = () => {
  throw new AppError('NOT_FOUND', { error: 'No archived report with that id.' });
};
export const getBadge: Handler<'getBadge'> = (req) => {
  throw new AppError('NOT_FOUND', { error: 'This domain has never completed a scan.', domain: String(req.params.domain ?? '') });
};
export const listChecks: Handler<'listChecks'> = () => {
  throw new AppError('NOT_FOUND', { error: 'The check catalog is not available on this instance yet.' });
};
export const postMcp: Handler<'postMcp'> = (_req, res) => {
  res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32601, message: notYet } });
};
export const getMcp: Handler<'getMcp'> = () => {
  throw new AppError('NOT_ACCEPTABLE', { error: 'GET /mcp only serves an SSE stream.', hint: 'Send JSON-RPC with POST /mcp; see /.well-known/mcp.json.' });
};
