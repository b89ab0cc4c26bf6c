// GET /api/checks: the catalog of the current rubric, or of another published one (?rubric=),
// derived from the same ordered registries that score reports and serialised once at start.
// The contract's enum refuses an unknown rubric before this runs (a test keeps the enum equal
// to the published rubrics).
import { RUBRIC_VERSION } from '../scanner/versions.ts';
import { sendPrebuilt } from '../http/send.ts';
import type { Handler } from './types.ts';

export const listChecks: Handler<'listChecks'> = (req, res, ctx) => {
  const rubric = typeof req.query.rubric === 'string' ? req.query.rubric : RUBRIC_VERSION;
  const published = ctx.services.catalogs.get(rubric)!;
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Encoded once at start (express would re-encode a string on every send), compressed once on demand.
  sendPrebuilt(req, res, ctx.services.reads.fixed(`catalog:${rubric}`, () => published.json));
};
