// The lead (contact details) policy shared by every scan surface: POST /scan, POST /scan-mcp,
// the MCP scan_site tool, the web form and the CLI. The rules have one source, the contract's
// Lead schema (openapi.yaml), through its generated validator; this module only words the
// first broken rule, so every surface says the same thing about the same bad lead.
import { validateLead } from '../../generated/validators.js';
import { AppError } from '../errors.ts';

export interface Lead {
  name: string;
  email: string;
  phone: string | null;
  role: string | null;
}

/** What a lead must look like, sent with every lead-gate 400 (`required`). */
export const LEAD_REQUIRED = {
  lead: {
    name: 'string, 2 to 120 characters',
    email: 'string, email address, at most 254 characters',
    phone: 'optional: digits, spaces and + ( ) - . only, 7 to 25 characters, at least 7 digits',
    role: 'optional: string, at most 80 characters',
  },
};

const FIELD_RULES: Record<string, string> = {
  name: '`lead.name` must be 2 to 120 characters.',
  email: '`lead.email` must be an email address of at most 254 characters.',
  phone: '`lead.phone` may hold only digits, spaces and + ( ) - ., 7 to 25 characters with at least 7 digits.',
  role: '`lead.role` must be a string of at most 80 characters.',
};

/** The message for the first rule `input` breaks, or null when it is a valid lead. */
export function leadProblem(input: unknown): string | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'Contact details (`lead` with name and email) are required.';
  if (validateLead(input)) return null;
  const errors = validateLead.errors ?? [];
  // Report in a fixed order (name, email, phone, role, then anything else) whatever order the validator found them in.
  const missing = errors.find((e) => e.keyword === 'required');
  if (missing) return `\`lead.${String(missing.params.missingProperty)}\` is required.`;
  for (const field of Object.keys(FIELD_RULES)) if (errors.some((e) => e.instancePath === `/${field}`)) return FIELD_RULES[field]!;
  const extra = errors.find((e) => e.keyword === 'additionalProperties');
  if (extra) return `\`lead\` holds only name, email, phone and role (not \`${String(extra.params.additionalProperty)}\`).`;
  return 'Contact details (`lead` with name and email) are invalid.';
}

export function leadError(message: string): AppError {
  return new AppError('LEAD_REQUIRED', { error: message, hint: 'Every scan needs your contact name and email in `lead`.', required: LEAD_REQUIRED });
}

/** Validates and normalises the lead (surrounding spaces trimmed, null optionals absent); throws the lead-gate 400. */
export function checkLead(input: unknown): Lead {
  const problem = leadProblem(input);
  if (problem) throw leadError(problem);
  const l = input as { name: string; email: string; phone?: string | null; role?: string | null };
  return { name: l.name.trim(), email: l.email.trim(), phone: l.phone ?? null, role: l.role ?? null };
}
