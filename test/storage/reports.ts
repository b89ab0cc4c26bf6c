// Archived payloads that match the contract, for storage tests: the archive refuses a report
// that fails its schema (ScanReport, McpServerReport), so rows carry the spec's own examples
// (openapi.yaml components.examples), with the row's id, domain, headline and score put in.
import { openapiDocument } from '../../generated/openapi.ts';
import type { ScanRow } from '../../src/storage/queries/archiveScan.ts';

const examples = (openapiDocument as unknown as { components: { examples: Record<string, { value: Record<string, unknown> }> } }).components.examples;

/** The archived payload (no response-only fields) for a row of this kind, id, domain, headline and score. */
export function reportFor(row: Pick<ScanRow, 'id' | 'kind' | 'domain' | 'headline' | 'score'>): string {
  const example = structuredClone(examples[row.kind === 'site' ? 'ScanReportOpen' : 'McpServerReport']!.value);
  for (const key of ['reportUrl', 'coalesced', 'ageMs', 'cliUploadToken', 'mail', 'archived']) delete example[key];
  if (row.kind === 'mcp-server') return JSON.stringify({ ...example, scanId: row.id });
  const score = example.score as Record<string, unknown>;
  return JSON.stringify({
    ...example, scanId: row.id, domain: row.domain, headline: row.headline,
    score: { ...score, value: row.score, display: row.score === null ? 'not enough signal' : String(row.score) },
  });
}
