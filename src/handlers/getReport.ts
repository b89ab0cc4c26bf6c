// GET /r/{scanId}: the archived report, as a page for people and as JSON for programs.
// Site reports are HTML unless JSON is preferred; MCP-server reports are JSON unless HTML is
// preferred (a browser). `?format=` overrides both, so a plain link can reach either form.
import { AppError } from '../errors.ts';
import { EVERY_RESPONSE_HEADERS } from '../http/every-response.ts';
import { reportWants } from '../http/negotiate.ts';
import { sendBadIdPage } from '../http/pages.ts';
import { sendPrebuilt } from '../http/send.ts';
import { renderMcpReportPage } from '../report/mcp-page.ts';
import { renderNotFoundPage, renderReportPage } from '../report/page.ts';
import { PAGE_HEADERS } from '../report/styles.ts';
import { reportCsp, reportPageHeaders } from '../report/watch-form.ts';
import { isExcluded } from '../scans/excluded.ts';
import { loadArchivedReport, loadReportHistory } from '../scans/archive.ts';
import type { ScanReportBody } from '../scans/types.ts';
import type { components } from '../../generated/api-types.ts';
import type { Handler } from './types.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The page headers a cached page still needs: those the pipeline has not already set on every
 * response. test/hostile/read-caches.test.ts holds the two paths to the same headers.
 */
const CACHED_PAGE_HEADERS = Object.entries(PAGE_HEADERS).filter(([name]) => !(name in EVERY_RESPONSE_HEADERS));

// MCP pages share the page cache under their own key, so a cached HTML rendering can never
// answer a request that wants the MCP report's default JSON.
const mcpKey = (id: string) => `mcp:${id}`;

export const getReport: Handler<'getReport'> = async (req, res, ctx) => {
  const scanId = String(req.params.scanId ?? '');
  const want = reportWants(req);
  res.vary('Accept');
  if (!UUID.test(scanId)) {
    // Most often a link cut short when copied: a person gets a page saying so (as the error
    // handler does when the validator sees the id first), a program the Error object.
    if (want.site === 'json') throw new AppError('BAD_REQUEST', { error: 'The report id is not a valid id.' });
    sendBadIdPage(res, scanId);
    return;
  }
  const id = scanId.toLowerCase();
  const turnstile = Boolean(ctx.config.turnstileSiteKey);
  const cachedSite = want.site === 'html' ? ctx.services.reads.reportPage(id) : undefined;
  const cached = cachedSite ?? (want.mcp === 'html' ? ctx.services.reads.reportPage(mcpKey(id)) : undefined);
  if (cached !== undefined) {
    res.statusCode = 200;
    res.setHeader('Cache-Control', 'private, max-age=60');
    for (const [name, value] of CACHED_PAGE_HEADERS) res.setHeader(name, value);
    // A site report's page may carry the watch form (it posts here and runs /assets/watch-form.js).
    if (cachedSite !== undefined) res.setHeader('Content-Security-Policy', reportCsp(turnstile));
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    sendPrebuilt(req, res, cached);
    return;
  }
  const found = await loadArchivedReport(ctx.db, ctx.config.baseUrl, id);
  if (!found) {
    if (want.site === 'json') throw new AppError('NOT_FOUND', { error: 'No archived report with that id.', hint: 'Reports of ephemeral tunnel hosts are never archived.' });
    res.status(404).set(PAGE_HEADERS).set('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(renderNotFoundPage(scanId));
    return;
  }
  // A capability URL: private caches only, and short, because a CLI vantage may attach once.
  res.set('Cache-Control', 'private, max-age=60');
  if (found.kind === 'mcp-server') {
    if (want.mcp === 'json') {
      res.status(200).json(found.report);
      return;
    }
    const page = ctx.services.reads.rememberReportPage(mcpKey(id), renderMcpReportPage(found.report as unknown as components['schemas']['McpServerReport']));
    res.status(200).set(PAGE_HEADERS).type('text/html; charset=utf-8');
    sendPrebuilt(req, res, page);
    return;
  }
  if (want.site === 'json') {
    res.status(200).json(found.report);
    return;
  }
  // Every archived report of a domain not excluded offers "Watch this site" (tunnel hosts are never archived).
  const watchable = !(await isExcluded(ctx.db, ctx.config.excludedDomains, found.row.domain));
  const page = ctx.services.reads.rememberReportPage(id, renderReportPage({
    report: found.report as unknown as ScanReportBody,
    evidence: found.evidence,
    cliVantage: found.cliVantage,
    catalog: ctx.services.catalog,
    history: await loadReportHistory(ctx.db, found.row),
    ...(watchable ? { watchForm: { scanId: id, ...(ctx.config.turnstileSiteKey ? { turnstileSiteKey: ctx.config.turnstileSiteKey } : {}) } } : {}),
  }));
  res.status(200).set(reportPageHeaders(turnstile)).type('text/html; charset=utf-8');
  sendPrebuilt(req, res, page);
};
