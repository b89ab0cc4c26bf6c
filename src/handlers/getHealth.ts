import { sendPrebuilt } from '../http/send.ts';
import { RUBRIC_VERSION, ROSTER_VERSION } from '../scanner/versions.ts';
import type { Handler } from './types.ts';

/** The answer never changes while the process runs: encoded once (res.json stringified it per request). */
const BODY = Buffer.from(JSON.stringify({ ok: true, service: 'agent-readiness', rubric: RUBRIC_VERSION, roster: ROSTER_VERSION }));

export const getHealth: Handler<'getHealth'> = (req, res) => {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  sendPrebuilt(req, res, BODY);
};
