// GET /assets/watch-form.js: the report page's inline submit of its watch form (src/pages/watch-form.js).
import { WATCH_FORM_SCRIPT } from '../pages/watch-form-script.ts';
import type { Handler } from './types.ts';

export const getWatchFormScript: Handler<'getWatchFormScript'> = (_req, res) => {
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('text/javascript; charset=utf-8').send(WATCH_FORM_SCRIPT);
};
