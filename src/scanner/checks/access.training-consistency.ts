// Standard: RFC 9309 robots.txt as the declared policy, compared with edge behaviour (verdicts.md).
import { ALL, accessOver, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'access.training-consistency', name: 'Edge agrees with robots.txt for training crawlers', category: 'access', weight: 3, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 9309 (robots.txt) as the declared policy; edge outcomes per verdicts.md',
  why: 'Saying yes in robots.txt while the edge says no sends mixed signals; blocking training is a legitimate choice and is never penalised when robots.txt declares it.',
  fix: 'State the training choice in robots.txt (or Content-Signal) and make the edge rule match it.',
  // Agents robots.txt disallows are left out inside accessOver: their edge block is consistent.
  evaluate: (ev) => accessOver(ev, ['training', 'archive'], 1, 'training and archive crawlers'),
};
