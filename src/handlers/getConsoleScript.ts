// GET /assets/console.js: the partner console's script (src/pages/console.js).
import { CONSOLE_SCRIPT } from '../pages/console.ts';
import type { Handler } from './types.ts';

export const getConsoleScript: Handler<'getConsoleScript'> = (_req, res) => {
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('text/javascript; charset=utf-8').send(CONSOLE_SCRIPT);
};
