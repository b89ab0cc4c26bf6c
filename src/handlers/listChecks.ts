// GET /api/checks: the catalog, derived from the same ordered registry that scores reports.
import { buildCatalog } from '../scanner/catalog.ts';
import type { Handler } from './types.ts';

let catalog: ReturnType<typeof buildCatalog> | undefined;

export const listChecks: Handler<'listChecks'> = (_req, res) => {
  catalog ??= buildCatalog();
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.json(catalog);
};
