// The lead (contact details) policy shared by every scan surface: POST /scan, the MCP tool
// and POST /scan-mcp. The OpenAPI validator catches most shape errors before a handler runs;
// this is the same rule for callers that do not pass through it (MCP) and the one place the
// "at least 7 digits" phone rule lives.
import { AppError } from '../errors.ts';

export interface Lead {
  name: string;
  email: string;
  phone: string | null;
  role: string | null;
}

export const LEAD_REQUIRED = {
  lead: {
    name: 'string, 2 to 120 characters',
    email: 'string, email address, at most 254 characters',
    phone: 'optional: digits, spaces and + ( ) - . only, 7 to 25 characters, at least 7 digits',
    role: 'optional: string, at most 80 characters',
  },
};

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const PHONE = /^[0-9 +().-]{7,25}$/;

function invalid(error: string): AppError {
  return new AppError('LEAD_REQUIRED', { error, hint: 'Every scan needs your contact name and email in `lead`.', required: LEAD_REQUIRED });
}

/** Validates and normalises the lead; throws a 400 naming the problem. */
export function checkLead(input: unknown): Lead {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('Contact details (`lead` with name and email) are required.');
  const l = input as Record<string, unknown>;
  if (typeof l.name !== 'string') throw invalid('`lead.name` is required.');
  const name = l.name.trim();
  if (name.length < 2 || name.length > 120) throw invalid('`lead.name` must be 2 to 120 characters.');
  if (typeof l.email !== 'string') throw invalid('`lead.email` is required.');
  const email = l.email.trim();
  if (email.length > 254 || !EMAIL.test(email)) throw invalid('`lead.email` must be an email address of at most 254 characters.');
  let phone: string | null = null;
  if (l.phone !== undefined && l.phone !== null) {
    if (typeof l.phone !== 'string' || !PHONE.test(l.phone) || (l.phone.match(/[0-9]/g) ?? []).length < 7) {
      throw invalid('`lead.phone` may hold only digits, spaces and + ( ) - ., 7 to 25 characters with at least 7 digits.');
    }
    phone = l.phone;
  }
  let role: string | null = null;
  if (l.role !== undefined && l.role !== null) {
    if (typeof l.role !== 'string' || l.role.length > 80) throw invalid('`lead.role` must be a string of at most 80 characters.');
    role = l.role;
  }
  return { name, email, phone, role };
}
