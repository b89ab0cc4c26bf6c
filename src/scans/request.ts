// The rest of a scan request (profile, fresh, the verification token), judged by the contract's
// ScanRequest schema through its generated validator, for every surface alike: POST /scan (where
// express-openapi-validator has already applied the same schema), the web form (whose fields are
// only text), the MCP scan_site tool and anything else that calls the scan service. The lead and
// the domain have their own words (lead.ts, ScanService.readDomain) and are judged first.
import { validateScanRequest } from '../../generated/validators.js';
import { AppError } from '../errors.ts';
import type { Profile, ScanIntent } from './types.ts';

export interface RequestFields { domain: unknown; lead: unknown; profile?: unknown; rubric?: unknown; intent?: unknown; fresh?: unknown; turnstileToken?: unknown }

interface SchemaError { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }

/** The first rule the request breaks, in words that name the field, or null when it is valid. */
export function scanRequestProblem(fields: RequestFields): string | null {
  const request = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (validateScanRequest(request)) return null;
  const errs = (validateScanRequest.errors ?? []) as SchemaError[];
  // The lead and the domain are worded by their own checks; here only what is left.
  const rest = errs.filter((e) => !/^\/(lead|domain)(\/|$)/.test(e.instancePath));
  const first = rest.find((e) => e.keyword === 'enum') ?? rest[0] ?? errs[0];
  if (!first) return 'The scan request is invalid.';
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'the request';
  if (first.keyword === 'enum') return `\`${field}\` must be one of ${(first.params.allowedValues as unknown[]).join(', ')}.`;
  if (first.keyword === 'additionalProperties' && field === 'intent') return `\`intent\` has no role \`${String(first.params.additionalProperty)}\`; the roles are training, search, user-fetch and archive.`;
  if (first.keyword === 'additionalProperties') return `A scan request has no field \`${String(first.params.additionalProperty)}\`.`;
  if (first.keyword === 'minProperties' && field === 'intent') return '`intent` names no role; leave it out, or name at least one role.';
  return `\`${field}\` ${first.message ?? 'is invalid'}.`;
}

/** The 400 for a request that breaks the contract (the same error on every surface), or null. */
export function scanRequestError(fields: RequestFields): AppError | null {
  const problem = scanRequestProblem(fields);
  if (!problem) return null;
  const hint = problem.startsWith('`profile`') ? 'Leave `profile` out to let the scan detect the kind of site.'
    : problem.includes('`intent') ? 'intent names roles (training, search, user-fetch, archive), each allow, block or charge, e.g. {"training": "block", "search": "allow"}.'
    : problem.startsWith('`rubric`') ? 'Leave `rubric` out to score with the current rubric; GET /api/checks lists each rubric\'s checks and weights.'
      : 'The fields and their allowed values are in the ScanRequest schema at /openapi.json.';
  return new AppError('BAD_REQUEST', { error: problem, hint });
}

/** What a valid request asks of the scan beyond its domain and lead. */
export interface ScanAsk { profile?: Profile; rubric?: string; intent?: ScanIntent }

/** Throws the 400 for a request that breaks the contract; returns the profile, rubric and intent, narrowed. */
export function checkScanRequest(fields: RequestFields): ScanAsk {
  const err = scanRequestError(fields);
  if (err) throw err;
  return {
    ...(fields.profile !== undefined ? { profile: fields.profile as Profile } : {}),
    ...(fields.rubric !== undefined ? { rubric: fields.rubric as string } : {}),
    ...(fields.intent !== undefined ? { intent: fields.intent as ScanIntent } : {}),
  };
}
