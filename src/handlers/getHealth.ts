import { sendPrebuilt } from '../http/send.ts';
import { RUBRIC_VERSION, ROSTER_VERSION } from '../scanner/versions.ts';
import type { Handler } from './types.ts';

const BASE = { ok: true, service: 'agent-readiness', rubric: RUBRIC_VERSION, roster: ROSTER_VERSION };
/** The usual answer, encoded once (res.json stringified it per request); a degraded engine's is built when asked. */
const OK = Buffer.from(JSON.stringify({ ...BASE, jobs: 'ok' }));

/** `ok` stays true while the process serves: a degraded job engine delays queued work, not people's scans. */
export const getHealth: Handler<'getHealth'> = (req, res, ctx) => {
  const jobs = ctx.services.jobs.health();
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  sendPrebuilt(req, res, jobs.state === 'ok' ? OK : Buffer.from(JSON.stringify({ ...BASE, jobs: 'degraded', jobsReason: jobs.reason ?? 'unknown' })));
};
