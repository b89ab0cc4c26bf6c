// GET /assets/{stylesheet}.css: the pages' stylesheet under its content-named file name
// (src/report/styles.ts). Only the current name exists: a name never changes content.
// Served ahead of the request validator in production, so the name is checked here.
import { AppError } from '../errors.ts';
import { STYLESHEET_BODY, STYLESHEET_CACHE_CONTROL, STYLESHEET_NAME } from '../report/styles.ts';
import { sendPrebuilt } from '../http/send.ts';
import type { Handler } from './types.ts';

export const getStylesheet: Handler<'getStylesheet'> = (req, res, ctx) => {
  if (req.params.stylesheet !== STYLESHEET_NAME) throw new AppError('NOT_FOUND', { error: 'No stylesheet by that name.', hint: 'The pages link the current one.' });
  res.statusCode = 200;
  res.setHeader('Cache-Control', STYLESHEET_CACHE_CONTROL);
  res.setHeader('Content-Type', 'text/css; charset=utf-8');
  sendPrebuilt(req, res, ctx.services.reads.fixed('stylesheet', () => STYLESHEET_BODY));
};
