// The pages a person with a browser gets where a program gets the Error object: an address no
// route serves, and a report link whose id is not an id (most often one cut short when copied).
import type { Request, Response } from 'express';
import { renderBadIdPage, renderNoSuchPage } from '../report/page.ts';
import { PAGE_HEADERS } from '../report/styles.ts';
import { preferredType } from './negotiate.ts';

/** A GET from a browser: JSON stays the answer to programs, which ask for it, for anything, or for nothing in particular. */
export function wantsPage(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && preferredType(req, ['application/json', 'text/html']) === 'text/html';
}

export function sendNoSuchPage(req: Request, res: Response): void {
  res.status(404).set(PAGE_HEADERS).set('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(renderNoSuchPage(req.path));
}

export function sendBadIdPage(res: Response, scanId: string): void {
  res.status(400).set(PAGE_HEADERS).set('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(renderBadIdPage(scanId));
}
