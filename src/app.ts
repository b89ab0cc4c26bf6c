// The HTTP pipeline, in the order a request meets it:
//   request id + log -> security headers -> CORS (x-cors operations)
//   -> (production) the reads with nothing to validate -> internal routes
//   -> body read with the operation's wire limit (x-body-limit) -> OpenAPI validation
//   (built on the first request that reaches it) -> the operation's handler (by
//   operationId) -> one error renderer.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { operations, type OperationRow } from '../generated/operations.ts';
import type { AppContext } from './context.ts';
import { handlers } from './handlers/index.ts';
import type { HandlerContext } from './handlers/types.ts';
import type { AppServices } from './services.ts';
import { AppError } from './errors.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { EVERY_RESPONSE_HEADERS } from './http/every-response.ts';
import { multipartFields } from './http/multipart.ts';
import { requestLog } from './http/request-log.ts';
import './http/route-regexp-cache.ts';

/** Default body limit for operations whose contract names none. */
const DEFAULT_BODY_LIMIT = 16 * 1024;

export interface AppOptions {
  /** Replaces handlers of the table (tests that need a misbehaving or slow handler). */
  handlers?: Partial<typeof handlers>;
}

export function createApp(ctx: AppContext, services: AppServices, options: AppOptions = {}): Express {
  const hctx: HandlerContext = { ...ctx, services };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.set('etag', false);

  app.use(requestLog(ctx.log));

  app.use((_req, res, next) => {
    for (const name in EVERY_RESPONSE_HEADERS) res.setHeader(name, EVERY_RESPONSE_HEADERS[name]!);
    next();
  });

  mountCors(app);

  const handlerOf = (op: OperationRow) => (options.handlers?.[op.operationId] ?? handlers[op.operationId]) as (req: Request, res: Response, ctx: HandlerContext) => unknown;
  // In production (no response validation) a GET that takes no input at all (no parameters,
  // unknown query parameters allowed) gives the request validator nothing to check, yet it
  // cost a third of such a request (route lookup over the whole contract, bench/results.md).
  // Serve those ahead of it; everything else still passes through it.
  // The public reads with a path parameter check it in their handlers (getReport: a
  // UUID and an optional `format` of html or json, else 400; getBadge: the domain normalizer, else the "not scanned" 404;
  // getStylesheet: the one current name, else 404), and the router
  // answers an undecodable parameter with 400, so they join them.
  const inputless = ctx.config.validateResponses
    ? new Set<string>()
    : new Set([...operations.filter((op) => takesNoInput(ctx.spec, op)).map((op) => op.operationId), 'getReport', 'getBadge', 'getStylesheet']);
  // Mounted before the internal routers and the body readers, which never answer a GET of
  // the contract: a read does not walk past them (bench/results.md). The router tries routes
  // in order and their paths are distinct, so the most requested reads go first.
  // A GET whose only inputs are optional query parameters (GET /api/checks?rubric=) has
  // nothing to validate when the request carries no query string: it is served here too. Any
  // query string, even an empty one, still goes through the validator.
  const optionalQueryOnly = (op: OperationRow) => !ctx.config.validateResponses && !inputless.has(op.operationId) && takesOnlyOptionalQuery(ctx.spec, op);
  for (const op of hottestFirst(operations)) {
    if (inputless.has(op.operationId)) app.get(op.expressPath, (req: Request, res: Response) => handlerOf(op)(req, res, hctx));
    else if (optionalQueryOnly(op)) {
      app.get(op.expressPath, (req: Request, res: Response, next: NextFunction) => {
        if (req.url.includes('?')) return next();
        return handlerOf(op)(req, res, hctx);
      });
    }
  }

  for (const router of services.internal) app.use(router);
  for (const op of operations) if (op.method !== 'get') mountBodyReader(app, op, declaresMultipart(ctx.spec, op));

  // HEAD is GET without a body (RFC 9110 §9.3.2), and the contract declares only the GETs.
  // Node decided when the response was created that a HEAD gets no body, so the request
  // goes on as the GET it mirrors and is validated and answered as one, with no body sent.
  app.use((req, _res, next) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  });
  app.use(lazyRequestValidator(ctx));

  for (const op of operations) {
    if (inputless.has(op.operationId)) continue;
    const handler = handlerOf(op);
    app[op.method](op.expressPath, (req: Request, res: Response) => handler(req, res, hctx));
  }

  app.use(notFoundHandler);
  app.use(errorHandler(ctx));
  return app;
}

/** The reads people and badges request most, in this order, then the rest as the contract lists them. */
export const HOT_READS = ['getReport', 'getBadge', 'listChecks', 'getHealth'] as const;

function hottestFirst(ops: readonly OperationRow[]): OperationRow[] {
  const rank = (op: OperationRow) => {
    const i = (HOT_READS as readonly string[]).indexOf(op.operationId);
    return i === -1 ? HOT_READS.length : i;
  };
  return [...ops].sort((a, b) => rank(a) - rank(b)); // stable: the rest keep their order
}

/**
 * The OpenAPI request validator, built on the first request that reaches it. Building it
 * (importing express-openapi-validator, bundling the spec, compiling its schemas with ajv,
 * including the OpenAPI meta-schema it compiles even with validateApiSpec off) was a third of
 * the service's cold start (bench/results.md), and neither /health nor the input-less reads
 * above ever reach it. Requests that arrive while it is being built wait for it; a failed
 * build fails those requests (500) and is retried by the next one.
 */
function lazyRequestValidator(ctx: AppContext): RequestHandler {
  let ready: Promise<RequestHandler[]> | undefined;
  const build = async (): Promise<RequestHandler[]> => {
    const OpenApiValidator = await import('express-openapi-validator');
    const chain = OpenApiValidator.middleware({
      apiSpec: structuredClone(ctx.spec) as never,
      validateRequests: { allErrors: true },
      validateResponses: ctx.config.validateResponses ? { allErrors: true } : false,
      validateFormats: true,
      // Keys are checked by the handlers (src/keys/service.ts): our 401 words and WWW-Authenticate.
      validateSecurity: false,
      ignoreUndocumented: false,
      validateApiSpec: false, // redocly lints it in CI; skipping saves start-up time
      // multipart/form-data is read by our body reader (src/http/multipart.ts) with the
      // operation's limits; the validator's own reader would take files of any size.
      fileUploader: false,
    });
    return (Array.isArray(chain) ? chain : [chain]) as RequestHandler[];
  };
  let chain: RequestHandler[] | undefined;
  return (req, res, next) => {
    if (chain) return run(chain, req, res, next);
    (ready ??= build()).then(
      (built) => {
        chain = built;
        run(built, req, res, next);
      },
      (err: unknown) => {
        ready = undefined;
        next(err);
      },
    );
  };
}

/** Runs middleware in order as express would: the next one on next(), out on next(err) or 'route'/'router'. */
function run(chain: RequestHandler[], req: Request, res: Response, done: NextFunction, i = 0): void {
  const mw = chain[i];
  if (!mw) return done();
  const step: NextFunction = (err?: unknown) => {
    if (err) return done(err);
    run(chain, req, res, done, i + 1);
  };
  try {
    const out = mw(req, res, step) as unknown;
    if (out instanceof Promise) out.catch(done);
  } catch (err) {
    done(err);
  }
}

/** A GET's parameters, or undefined when it has a body or rejects unknown query parameters. */
function getParameters(spec: Record<string, unknown>, op: OperationRow): Array<{ in?: string; required?: boolean; $ref?: string }> | undefined {
  if (op.method !== 'get') return undefined;
  const item = (spec.paths as Record<string, Record<string, unknown>> | undefined)?.[op.path];
  const operation = item?.[op.method] as { parameters?: unknown[]; requestBody?: unknown; 'x-eov-allow-unknown-query-parameters'?: boolean } | undefined;
  if (!item || !operation) return undefined;
  if (operation.requestBody !== undefined || operation['x-eov-allow-unknown-query-parameters'] !== true) return undefined;
  return [...((item.parameters as unknown[] | undefined) ?? []), ...(operation.parameters ?? [])] as Array<{ in?: string; required?: boolean; $ref?: string }>;
}

/** Whether the operation's request body may be multipart/form-data. */
function declaresMultipart(spec: Record<string, unknown>, op: OperationRow): boolean {
  const operation = (spec.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> | undefined)?.[op.path]?.[op.method];
  return operation?.requestBody?.content?.['multipart/form-data'] !== undefined;
}

/** A GET with no parameters, no body, and unknown query parameters allowed. */
function takesNoInput(spec: Record<string, unknown>, op: OperationRow): boolean {
  return getParameters(spec, op)?.length === 0;
}

/** A GET with no body, unknown query parameters allowed, and only optional query parameters (inline, not $ref'd). */
function takesOnlyOptionalQuery(spec: Record<string, unknown>, op: OperationRow): boolean {
  const params = getParameters(spec, op);
  return params !== undefined && params.length > 0 && params.every((p) => p.$ref === undefined && p.in === 'query' && p.required !== true);
}

const CORS_HEADERS = 'Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID';

/**
 * CORS for the operations marked x-cors. Their paths are literal, so one layer looks the
 * request's path up in a map instead of one route layer per operation (twenty), which every
 * request used to walk. The lookup matches as those routes did: case-insensitive, on the raw
 * (undecoded) path, one trailing slash allowed. A path with parameters keeps a route of its own.
 */
function mountCors(app: Express): void {
  const literal = new Map<string, OperationRow[]>();
  for (const op of operations) {
    if (!op.cors) continue;
    if (/[:*?(){}\\]/.test(op.expressPath)) {
      app.all(op.expressPath, (req: Request, res: Response, next: NextFunction) => corsFor(req, res, next, [op]));
      continue;
    }
    const key = op.expressPath.toLowerCase();
    literal.set(key, [...(literal.get(key) ?? []), op]);
  }
  app.use((req: Request, res: Response, next: NextFunction) => {
    let path = req.path.toLowerCase();
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const ops = literal.get(path);
    if (!ops) return next();
    corsFor(req, res, next, ops);
  });
}

function corsFor(req: Request, res: Response, next: NextFunction, ops: OperationRow[]): void {
  const preflight = req.method === 'OPTIONS';
  // Paths can carry several operations (GET and POST /scan); CORS follows the operation.
  const method = req.method.toLowerCase();
  if (!preflight && !ops.some((op) => op.method === method)) return next();
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, RateLimit-Limit, RateLimit-Remaining, Retry-After, X-Request-Id');
  if (!preflight) return next();
  const path = ops[0]!.path;
  const methods = operations.filter((o) => o.path === path && o.cors).map((o) => o.method.toUpperCase());
  res.setHeader('Access-Control-Allow-Methods', [...methods, 'OPTIONS'].join(', '));
  res.setHeader('Access-Control-Allow-Headers', CORS_HEADERS);
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
}

/**
 * Reads JSON bodies with the operation's limit counted on the wire: Content-Length above
 * the limit is refused before reading, chunked bodies are cut off at the limit, and
 * compressed bodies are refused (inflate: false) so no decompression bomb gets parsed.
 * Other content types are left unread for the validator to answer 415.
 */
function mountBodyReader(app: Express, op: OperationRow, multipart: boolean): void {
  const lenient = op.operationId === 'postMcp'; // the JSON-RPC layer judges non-object bodies
  const limit = op.bodyLimit ?? DEFAULT_BODY_LIMIT;
  app[op.method](
    op.expressPath,
    cutOffAtLimit(limit),
    // Only where the contract declares multipart/form-data (RFC 8058's one-click unsubscribe);
    // elsewhere such a body stays unread and the validator answers 415.
    ...(multipart ? [multipartFields(limit)] : []),
    express.json({ limit, inflate: false, strict: !lenient, type: ['application/json', 'application/*+json'] }),
    // POST /batches takes CSV and plain text; other operations answer 415 to them in the validator.
    express.text({ limit, inflate: false, type: ['text/csv', 'text/plain'] }),
    // The web form (POST /) posts as a browser does; other operations answer 415 to it in the validator.
    express.urlencoded({ limit, inflate: false, extended: false, parameterLimit: 50, type: 'application/x-www-form-urlencoded' }),
  );
}

/**
 * body-parser answers 413 only once the whole request has been read (it drains the rest
 * first), so a declared 10 MB body, or an endless chunked one, kept the connection reading
 * until the request timeout (test/hostile/slow-bodies.test.ts). Refuse at the limit instead:
 * a Content-Length above it, or the byte that crosses it, gets the 413 at once, and the
 * connection is closed two seconds later whatever the client is still sending.
 */
function cutOffAtLimit(limit: number): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return refuse(req, res, limit);
    let seen = 0;
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) {
        req.off('data', count);
        refuse(req, res, limit);
      }
    };
    req.on('data', count);
    next();
  };
}

function refuse(req: Request, res: Response, limit: number): void {
  const socket = req.socket;
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  const size = limit % 1024 === 0 ? `${limit / 1024} KB` : `${limit} bytes`;
  const body = new AppError('PAYLOAD_TOO_LARGE', { error: `The request body is larger than ${size}.`, hint: `This endpoint accepts at most ${limit} bytes (${size}) on the wire.` }).toResponse();
  res.status(413).type('application/json').send(JSON.stringify(body));
  // Linger: keep reading (and dropping) what the client is still sending for a moment, then
  // close. Closing at once with unread bytes would reset the connection and could destroy
  // the 413 in the client's receive buffer before it is read.
  req.resume();
  setTimeout(() => socket.destroy(), 2000).unref();
}
