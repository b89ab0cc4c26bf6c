// GET /console: the partner console's page (src/pages/console.ts); all it shows is fetched by its script.
import { CONSOLE_CSP, CONSOLE_PAGE } from '../pages/console.ts';
import type { Handler } from './types.ts';

export const getConsole: Handler<'getConsole'> = (_req, res) => {
  res.set({ 'Content-Security-Policy': CONSOLE_CSP, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' });
  res.type('text/html; charset=utf-8').send(CONSOLE_PAGE);
};
