// GET /api/checks: the catalog of the current rubric, or of another published one (?rubric=),
// derived from the same ordered registries that score reports and serialised once at start.
import type { Handler } from './types.ts';

export const listChecks: Handler<'listChecks'> = (req, res, ctx) => {
  const catalogs = ctx.services.catalogs;
  const version = typeof req.query.rubric === 'string' ? req.query.rubric : [...catalogs.keys()][0]!;
  const published = catalogs.get(version);
  if (!published) {
    // The validator's enum answers first; this guards a spec enum that lags the registries.
    res.status(400).json({ error: `query parameter rubric must be one of: ${[...catalogs.keys()].join(', ')}`, hint: 'Omit rubric for the current rubric.' });
    return;
  }
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.send(published.json); // a Buffer, encoded once at start: express would re-encode a string on every send
};
