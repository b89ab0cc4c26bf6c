// One error module. Every 4xx/5xx body the service writes comes from here, in the spec's
// Error shape ({error, hint?, domain?, detail?, required?, retryAfterSeconds?}). Codes are
// stable identifiers for logs and tests; they are not sent on the wire (the spec's Error
// object has no code field), so they can never become a contract by accident.

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'INVALID_DOMAIN'
  | 'LEAD_REQUIRED'
  | 'INVALID_TARGET'
  | 'EXCLUDED_DOMAIN'
  | 'VERIFICATION_FAILED'
  | 'UPLOAD_TOKEN_INVALID'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'CONFLICT'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'SCANNER_ZONE'
  | 'RATE_LIMITED'
  | 'SCAN_FAILED'
  | 'NOT_IMPLEMENTED'
  | 'INTERNAL'
  | 'UNAVAILABLE';

/** The spec's Error object. */
export interface ErrorBody {
  error: string;
  hint?: string;
  domain?: string;
  detail?: string;
  required?: Record<string, unknown>;
  retryAfterSeconds?: number;
}

const statusOf: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  INVALID_DOMAIN: 400,
  LEAD_REQUIRED: 400,
  INVALID_TARGET: 400,
  EXCLUDED_DOMAIN: 403,
  VERIFICATION_FAILED: 403,
  UPLOAD_TOKEN_INVALID: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SCANNER_ZONE: 422,
  RATE_LIMITED: 429,
  SCAN_FAILED: 502,
  NOT_IMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly body: ErrorBody;
  /** Extra response headers, such as Retry-After on 429. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, body: ErrorBody, opts: { cause?: unknown; headers?: Record<string, string> } = {}) {
    super(body.error, { cause: opts.cause });
    this.code = code;
    this.status = statusOf[code];
    this.body = body;
    this.headers = opts.headers ?? {};
  }

  toResponse(): ErrorBody {
    return this.body;
  }
}

export const errors = {
  badRequest: (error: string, hint?: string) => new AppError('BAD_REQUEST', withHint({ error }, hint)),
  notFound: (error = 'Not found.', hint?: string) => new AppError('NOT_FOUND', withHint({ error }, hint)),
  conflict: (error: string, hint?: string) => new AppError('CONFLICT', withHint({ error }, hint)),
  gone: (error: string, hint?: string) => new AppError('GONE', withHint({ error }, hint)),
  rateLimited(retryAfterSeconds: number, what: string): AppError {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return errors.tooMany(seconds, `Too many scans ${what}. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
  },
  /** A 429 in the RateLimited shape, its Retry-After header carrying the same whole seconds. */
  tooMany(retryAfterSeconds: number, error: string, hint?: string): AppError {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return new AppError('RATE_LIMITED', withHint({ error, retryAfterSeconds: seconds }, hint), { headers: { 'Retry-After': String(seconds) } });
  },
  scanFailed: (detail: string, domain?: string) =>
    new AppError('SCAN_FAILED', { error: 'The scan could not complete.', detail, ...(domain ? { domain } : {}) }),
  /** 401 with the challenge RFC 6750 asks for; `realm` names what the bearer is (a partner key, the operator token). */
  unauthorized: (error: string, hint: string, realm = 'agent-readiness') =>
    new AppError('UNAUTHORIZED', { error, hint }, { headers: { 'WWW-Authenticate': `Bearer realm="${realm}"` } }),
  /** 503: a part the request needs (Redis, the job engine) is unreachable; nothing was stored. */
  unavailable: (error: string, hint?: string, cause?: unknown) =>
    new AppError('UNAVAILABLE', withHint({ error }, hint), { cause, headers: { 'Retry-After': '30' } }),
  internal: (cause?: unknown) => new AppError('INTERNAL', { error: 'Internal error. The request was not completed; nothing stored was changed.' }, { cause }),
};

function withHint(body: ErrorBody, hint: string | undefined): ErrorBody {
  return hint === undefined ? body : { ...body, hint };
}
