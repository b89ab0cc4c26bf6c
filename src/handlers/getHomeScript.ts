// GET /assets/home.js: the home page's progress script (src/pages/home-progress.js).
import { HOME_SCRIPT } from '../pages/home-script.ts';
import type { Handler } from './types.ts';

export const getHomeScript: Handler<'getHomeScript'> = (_req, res) => {
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('text/javascript; charset=utf-8').send(HOME_SCRIPT);
};
