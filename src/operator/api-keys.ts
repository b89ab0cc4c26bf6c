// The operator's partner-key endpoints, behind the operator router's bearer check:
//   POST   /internal/api-keys          {name, dailyScans} -> 201 {keyId, key} (the key is shown this once)
//   GET    /internal/api-keys          -> 200 {keys: [{keyId, name, dailyScans, createdAt, revokedAt}]}
//   DELETE /internal/api-keys/{keyId}  -> 204, or 404 when no live key has that id
// Outside the public contract like every /internal route: partners' generated clients have
// no use for them, and the operator token never appears in openapi.yaml.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AppError, errors } from '../errors.ts';
import type { ApiKeys } from '../keys/service.ts';

const sendError = (res: Response, e: AppError) => {
  res.status(e.status).set(e.headers).json(e.toResponse());
};

/** Errors of these routes in the Error shape; anything unexpected is passed to the app's renderer. */
const guarded = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
  fn(req, res).catch((err: unknown) => (err instanceof AppError ? sendError(res, err) : next(err)));
};

export function apiKeyRoutes(router: Router, keys: ApiKeys): void {
  router.post('/internal/api-keys', express.json({ limit: 4096 }), guarded(async (req, res) => {
    const body = (req.body ?? {}) as { name?: unknown; dailyScans?: unknown };
    if (typeof body.name !== 'string' || typeof body.dailyScans !== 'number') {
      throw errors.badRequest('Send {"name": "<partner>", "dailyScans": <whole number>}.', 'Both fields are required: name a string, dailyScans a number.');
    }
    res.status(201).json(await keys.create(body.name, body.dailyScans));
  }));
  router.get('/internal/api-keys', guarded(async (_req, res) => {
    res.json({ keys: await keys.list() });
  }));
  router.delete('/internal/api-keys/:keyId', guarded(async (req, res) => {
    if (!(await keys.revoke(String(req.params.keyId)))) throw errors.notFound('No live API key has this id.', 'GET /internal/api-keys lists the keys.');
    res.status(204).end();
  }));
}
