// GET /api/checks: the catalog, derived from the same ordered registry that scores reports.
// It never changes while the process runs, so it is serialised once: JSON.stringify of the
// catalog on every request was the largest cost of this read (bench/results.md).
import { buildCatalog } from '../scanner/catalog.ts';
import type { Handler } from './types.ts';

let body: Buffer | undefined;

export const listChecks: Handler<'listChecks'> = (_req, res) => {
  body ??= Buffer.from(JSON.stringify(buildCatalog()));
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('application/json; charset=utf-8').send(body);
};
