// The one place a 4xx/5xx body is written. Every error, ours (AppError), the validator's
// or the body reader's, becomes the spec's Error object; /mcp parse failures become
// JSON-RPC errors because that is what its clients read. No stack traces. A browser gets a page
// (src/http/pages.ts) instead for an address no route serves and for a malformed report id.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context.ts';
import { AppError, type ErrorBody } from '../errors.ts';
import { reportWants } from './negotiate.ts';
import { sendBadIdPage, sendNoSuchPage, wantsPage } from './pages.ts';
import { fromValidatorError, type ValidatorError } from './validator-errors.ts';

interface BodyReaderError {
  type: string;
  status?: number;
  limit?: number;
}

/** No route serves the address (the validator answers most such requests first, below). */
export const notFoundHandler: RequestHandler = (req, res) => {
  res.vary('Accept');
  if (wantsPage(req)) return sendNoSuchPage(req, res);
  send(res, new AppError('NOT_FOUND', { error: `No endpoint at ${req.method} ${req.path}.`, hint: 'The endpoints are listed at /openapi.json.' }));
};

export function errorHandler(ctx: AppContext): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      // Too late for a clean body (a stream was under way): end the connection.
      ctx.log.warn({ err, reqId: req.id }, 'error after headers were sent');
      res.destroy();
      return;
    }
    // The validator's 404 is an address the contract does not have: the same page for a browser.
    if (isValidatorError(err) && err.status === 404) {
      res.vary('Accept');
      if (wantsPage(req)) return sendNoSuchPage(req, res);
    }
    // With response validation on (development), the validator sees a malformed report id
    // before getReport does: the same page the handler gives a browser.
    const badId = isValidatorError(err) && err.status === 400 ? badReportId(req, err) : undefined;
    if (badId !== undefined) {
      res.vary('Accept');
      return sendBadIdPage(res, badId);
    }
    const appError = toAppError(err, req);
    if (appError.status >= 500) ctx.log.error({ err, reqId: req.id, code: appError.code }, 'request failed');
    if (req.path === '/mcp' && req.method === 'POST' && appError.code === 'BAD_REQUEST') {
      res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
      return;
    }
    send(res, appError);
  };
}

function toAppError(err: unknown, req: Request): AppError {
  if (err instanceof AppError) return err;
  if (isBodyReaderError(err)) return fromBodyReader(err);
  if (isValidatorError(err)) return fromValidatorError(err, req);
  // The router could not percent-decode a path parameter (POST /r/%zz/cli-vantage reaches
  // the body reader, a route, before the validator sees the path).
  if (err instanceof URIError && (err as { status?: number }).status === 400) {
    return new AppError('BAD_REQUEST', { error: 'Invalid request.', hint: 'The path is not valid percent-encoded UTF-8.' });
  }
  return new AppError('INTERNAL', { error: 'Internal error. The request was not completed.' }, { cause: err });
}

function fromBodyReader(err: BodyReaderError): AppError {
  switch (err.type) {
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', { error: 'The request body is too large.', hint: `This endpoint accepts at most ${err.limit} bytes.` });
    case 'encoding.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', { error: 'Compressed request bodies are not accepted.', hint: 'Send the JSON body without Content-Encoding.' });
    case 'entity.parse.failed':
      return new AppError('BAD_REQUEST', { error: 'The body is not valid JSON.', hint: 'Send one JSON object as described in /openapi.json.' });
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', { error: 'Unsupported charset.', hint: 'Send the body as UTF-8 JSON.' });
    default:
      return new AppError('BAD_REQUEST', { error: 'The request body could not be read.', hint: err.type });
  }
}

function send(res: Response, error: AppError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  const body: ErrorBody = error.toResponse();
  res.status(error.status).type('application/json').send(JSON.stringify(body));
}

function isBodyReaderError(err: unknown): err is BodyReaderError {
  return typeof err === 'object' && err !== null && typeof (err as BodyReaderError).type === 'string' && 'expose' in err;
}

function isValidatorError(err: unknown): err is ValidatorError {
  return typeof err === 'object' && err !== null && typeof (err as ValidatorError).status === 'number' && Array.isArray((err as ValidatorError).errors);
}

/** The malformed id of GET /r/{id} (or /r/{id}/diff/{otherId}) when it is the request's only fault and a page is wanted; else undefined. */
function badReportId(req: Request, err: ValidatorError): string | undefined {
  const m = /^\/r\/([^/]+)(?:\/diff\/([^/]+))?$/.exec(req.path);
  if (!m || (req.method !== 'GET' && req.method !== 'HEAD') || !err.errors.every((e) => e.path === '/params/scanId' || e.path === '/params/otherScanId')) return undefined;
  const format = req.query.format;
  if (format !== undefined && format !== 'html' && format !== 'json') return undefined;
  const bad = err.errors.some((e) => e.path === '/params/scanId') ? m[1]! : m[2] ?? m[1]!;
  return reportWants(req).site === 'html' ? decodeURIComponentSafe(bad) : undefined;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
