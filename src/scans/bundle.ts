// The scan services as one bundle: what the composition root builds (src/scans/services.ts)
// and hands to handlers and adapters. Its own module, so the builder and the adapters can
// both name it without importing each other.
import type { CatalogLookup } from '../report/sections.ts';
import type { ScanAdmission } from './admission.ts';
import type { ScanLimits } from './limits.ts';
import type { ScanService } from './service.ts';
import type { TurnstileGate } from './turnstile.ts';

export interface ScanServices {
  scans: ScanService;
  /** How many site scans run at once here (admission.ts); closed with the services. */
  admission: ScanAdmission;
  /** Shared with POST /scan-mcp and the MCP tool: one budget per domain and per IP. */
  limits: ScanLimits;
  /** The human-verification gate (TURNSTILE_SECRET), also asked of an unkeyed createWatch. */
  turnstile: TurnstileGate;
  /** why/fix text per check id, from the engine's registry (the catalog of GET /api/checks). */
  catalog: CatalogLookup;
}
