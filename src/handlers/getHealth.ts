import { RUBRIC_VERSION, ROSTER_VERSION } from '../scanner/versions.ts';
import type { Handler } from './types.ts';

export const getHealth: Handler<'getHealth'> = (_req, res) => {
  res.json({ ok: true, service: 'agent-readiness', rubric: RUBRIC_VERSION, roster: ROSTER_VERSION });
};
