// GET /r/{scanId}: the archived report, as a page for people and as JSON for programs
// (and always JSON for MCP-server reports).
import { AppError } from '../errors.ts';
import { renderNotFoundPage, renderReportPage } from '../report/page.ts';
import { PAGE_HEADERS } from '../report/styles.ts';
import { loadArchivedReport } from '../scans/archive.ts';
import type { ScanReportBody } from '../scans/types.ts';
import type { Handler } from './types.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const getReport: Handler<'getReport'> = async (req, res, ctx) => {
  const scanId = String(req.params.scanId ?? '');
  if (!UUID.test(scanId)) throw new AppError('BAD_REQUEST', { error: 'The report id is not a valid id.' });
  const wantsJson = req.accepts(['text/html', 'application/json']) === 'application/json';
  res.vary('Accept');
  const id = scanId.toLowerCase();
  const cached = wantsJson ? undefined : ctx.services.reads.reportPage(id);
  if (cached !== undefined) {
    res.set('Cache-Control', 'private, max-age=60');
    res.status(200).set(PAGE_HEADERS).type('text/html; charset=utf-8').send(cached);
    return;
  }
  const found = await loadArchivedReport(ctx.db, ctx.config.baseUrl, id);
  if (!found) {
    if (wantsJson) throw new AppError('NOT_FOUND', { error: 'No archived report with that id.', hint: 'Reports of ephemeral tunnel hosts are never archived.' });
    res.status(404).set(PAGE_HEADERS).set('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(renderNotFoundPage(scanId));
    return;
  }
  // A capability URL: private caches only, and short, because a CLI vantage may attach once.
  res.set('Cache-Control', 'private, max-age=60');
  if (wantsJson || found.kind === 'mcp-server') {
    res.status(200).json(found.report);
    return;
  }
  const page = renderReportPage({
    report: found.report as unknown as ScanReportBody,
    evidence: found.evidence,
    cliVantage: found.cliVantage,
    catalog: ctx.services.scans.catalog,
  });
  ctx.services.reads.rememberReportPage(id, page);
  res.status(200).set(PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
};
