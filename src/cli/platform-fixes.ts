/**
 * A failing check's fix as the terminal, Markdown and JUnit outputs tell it: the fix for each
 * platform that served the page first (its setting, what to do there, the vendor's documentation
 * and any configuration to paste), then the generic fix on one short line. The report carries
 * the platform fixes (`platformFixes`, from the scanner's one table); the generic fix is the
 * catalog's.
 */
import type { ScanReport } from './api.ts';

type PlatformFix = NonNullable<ScanReport['platformFixes']>[number];

export function platformFixesOf(report: ScanReport, checkId: string): PlatformFix[] {
  return (report.platformFixes ?? []).filter((f) => f.checkId === checkId);
}

/** Plain lines, unindented: the platform fixes, then `generic fix:` (or `fix:` when no platform has one). */
export function fixLines(report: ScanReport, checkId: string, generic: string | undefined): string[] {
  const out: string[] = [];
  for (const f of platformFixesOf(report, checkId)) {
    out.push(`fix on ${f.platformName}: ${f.setting}. ${f.text}`, `  docs: ${f.docUrl}`);
    if (f.snippet) out.push(...f.snippet.split('\n').map((l) => `  | ${l}`));
  }
  if (generic) out.push(`${out.length ? 'generic fix' : 'fix'}: ${generic}`);
  return out;
}

/** "Served by Cloudflare (edge), nginx (web server)", or null when nothing was attributed. */
export function servedBy(report: ScanReport): string | null {
  const p = report.platforms ?? [];
  const role: Record<string, string> = { edge: 'edge', host: 'host', origin: 'web server', cms: 'CMS', plugin: 'plugin' };
  return p.length ? `Served by ${p.map((a) => `${a.name} (${role[a.role] ?? a.role})`).join(', ')}` : null;
}
