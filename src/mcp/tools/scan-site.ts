/**
 * scan_site: runs the same live dual-vantage scan as POST /scan.
 * Contact details are tool parameters because every scan surface applies one
 * lead policy (service spec "Authentication" rule 2).
 */
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallContext, McpDeps } from '../types.ts';
import { errorResult, fromService } from './result.ts';
import { SCORING_RUBRICS } from '../../scanner/rubrics.ts';

export const name = 'scan_site';

const PROFILES = ['general', 'dev-platform', 'docs', 'publisher'] as const;

export const inputSchema = z.object({
  domain: z.string().min(1).max(253).describe('Public website domain, e.g. example.com. Pasted URLs are normalised; IPs and localhost are refused.'),
  // The lead's rules live once, in the contract (src/scans/lead.ts applies them): these are
  // typed strings only, so a bad lead gets the same message here as on every other surface.
  name: z.string().describe('Your contact name (2-120 characters). Required for every scan.'),
  email: z.string().describe('Your contact email (at most 254 characters). Required for every scan; the report link is sent there.'),
  phone: z.string().nullable().optional().describe('Optional phone: digits, spaces and + ( ) - . only, 7 to 25 characters with at least 7 digits.'),
  role: z.string().nullable().optional().describe('Optional role, e.g. "site owner" (at most 80 characters).'),
  fresh: z.boolean().optional().describe('true bypasses the 45-second coalescing window and forces a new scan.'),
  profile: z.enum(PROFILES).optional().describe('Pins the rubric profile instead of letting the scan infer it.'),
  // Typed loosely on purpose, as the lead is: the contract's ScanIntent judges it in the scan
  // service, so a bad role or wish gets the same 400 here as on POST /scan and the form.
  intent: z.record(z.string(), z.string()).optional().describe('What you want each role of AI agent to get: keys training, search, user-fetch, archive; values allow, block or charge. The report then says per role whether robots.txt and the edge carry it out. Never changes the score.'),
  rubric: z.enum(SCORING_RUBRICS.map((r) => r.version) as [string, ...string[]]).optional()
    .describe(`The rubric that scores the report: ${SCORING_RUBRICS.map((r) => r.version).join(' (default) or ')}. The report's versions.rubric names it.`),
});

export const outputSchema = z.looseObject({
  scanId: z.string(),
  domain: z.string(),
  headline: z.string(),
  reportUrl: z.string().optional(),
  coalesced: z.boolean().optional(),
});

export function register(server: McpServer, deps: McpDeps, ctx: CallContext): void {
  server.registerTool(name, {
    title: 'Scan a website for AI-agent readiness',
    description: 'Runs a live scan of a public website (10-30 s) from two datacenter networks and returns the scored report: '
      + 'headline, score, per-check results and per-agent access matrix. Needs your contact name and email.',
    inputSchema,
    outputSchema,
    // Not read-only: a call archives a report, mails the given address and spends the caller's
    // rate-limit budget. Clients auto-approve read-only tools, so claiming it would let an agent
    // mail third parties without asking. Nothing is destroyed; repeats make new scans.
    annotations: { title: 'Scan a website', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  }, async (args) => {
    try {
      const { domain, name: leadName, email, phone, role, fresh, profile, rubric, intent } = args;
      return fromService(await deps.scanSite({
        domain, lead: { name: leadName, email, phone: phone ?? null, role: role ?? null },
        ...(fresh === undefined ? {} : { fresh }), ...(profile === undefined ? {} : { profile }), ...(rubric === undefined ? {} : { rubric }), ...(intent === undefined ? {} : { intent }),
        clientIp: ctx.clientIp,
      }));
    } catch {
      return errorResult(502, { error: 'The scan could not complete.' });
    }
  });
}
