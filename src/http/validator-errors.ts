// express-openapi-validator errors -> our AppError. Two mappings follow the spec rather
// than the schema: missing contact details are a lead-gate 400 that carries `required`,
// and a missing upload token is a 403 (the spec's error table), not a generic 400.
import type { Request } from 'express';
import { AppError } from '../errors.ts';
import { leadError, leadProblem } from '../scans/lead.ts';
import { scanRequestError } from '../scans/request.ts';

export interface ValidatorError {
  status: number;
  message: string;
  errors: { path: string; message: string; errorCode?: string }[];
  headers?: Record<string, string>;
}


export function fromValidatorError(err: ValidatorError, req: Request): AppError {
  const hint = err.errors.map((e) => `${e.path.replace(/^\//, '').replace(/\//g, '.')} ${e.message}`).join('; ') || err.message;
  switch (err.status) {
    case 400:
      return fromBadRequest(err, req, hint);
    case 404:
      return new AppError('NOT_FOUND', { error: `No endpoint at ${req.method} ${req.path}.`, hint: 'The endpoints are listed at /openapi.json.' });
    case 405:
      return new AppError('METHOD_NOT_ALLOWED', { error: `${req.method} is not allowed on ${req.path}.`, hint: 'The endpoints are listed at /openapi.json.' }, { headers: allowHeader(err) });
    case 413:
      return new AppError('PAYLOAD_TOO_LARGE', { error: 'The request body is too large.' });
    case 415:
      return new AppError('UNSUPPORTED_MEDIA_TYPE', { error: 'Unsupported media type.', hint: 'Send the body as application/json.' });
    default:
      // 500: a response that breaks openapi.yaml (validateResponses) or a broken spec.
      return new AppError('INTERNAL', { error: 'Internal error. The request was not completed.' }, { cause: new Error(`${err.message}: ${hint}`) });
  }
}

function fromBadRequest(err: ValidatorError, req: Request, hint: string): AppError {
  const paths = err.errors.map((e) => e.path);
  const isScan = req.method === 'POST' && (req.path === '/scan' || req.path === '/scan-mcp');
  if (isScan && paths.some((p) => p === '/body/lead' || p.startsWith('/body/lead/'))) {
    // Worded by the lead policy itself, so REST says what the MCP tool, the form and the CLI say.
    return leadError(leadProblem((req.body as { lead?: unknown } | undefined)?.lead) ?? 'Contact details (`lead` with name and email) are required.');
  }
  if (req.method === 'POST' && req.path === '/scan' && paths.some((p) => /^\/(body\/(profile|rubric|fresh|turnstileToken)|query\/rubric)$/.test(p))) {
    // Worded by the one ScanRequest check the scan service applies to every surface (the form, MCP);
    // the hint still lists every problem the validator found. `?rubric=` is worded as the body's.
    const body = (req.body ?? {}) as Record<string, unknown>;
    const rubric = paths.includes('/query/rubric') ? req.query.rubric : body.rubric;
    const same = scanRequestError({ domain: body.domain, lead: body.lead, profile: body.profile, rubric, fresh: body.fresh, turnstileToken: body.turnstileToken });
    if (same) return new AppError('BAD_REQUEST', { error: same.body.error, hint });
  }
  if (req.method === 'POST' && /^\/r\/[^/]+\/cli-vantage$/.test(req.path) && paths.includes('/body/uploadToken')) {
    return new AppError('UPLOAD_TOKEN_INVALID', {
      error: 'The upload token is missing or invalid.',
      hint: 'Send the cliUploadToken returned by the fresh scan that created this report as uploadToken.',
    });
  }
  return new AppError('BAD_REQUEST', { error: 'Invalid request.', hint });
}

function allowHeader(err: ValidatorError): Record<string, string> {
  const allow = err.headers?.Allow ?? err.headers?.allow;
  return allow ? { Allow: allow } : {};
}
