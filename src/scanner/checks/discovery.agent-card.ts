// Standard: A2A protocol agent card (/.well-known/agent-card.json).
import { insteadNote } from '../file-judge.ts';
import { fileState, parseJson } from '../evidence.ts';
import { fail, inconclusive, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'discovery.agent-card', name: 'An A2A agent card is published', category: 'discovery', weight: 1, profiles: ['dev-platform'], since: 'rubric-v1.1',
  standard: 'Agent2Agent (A2A) protocol: agent card at /.well-known/agent-card.json',
  why: 'Platforms that offer agents of their own can describe them to other agents with an A2A card.',
  fix: 'Publish /.well-known/agent-card.json with the agent\'s name, skills and endpoint.',
  evaluate(ev) {
    const v = ev.files['/.well-known/agent-card.json'];
    const doc = parseJson(v) as { name?: unknown } | undefined;
    if (typeof doc?.name === 'string') return pass('agent card published');
    if (fileState(v) === 'unknown') return inconclusive('/.well-known/agent-card.json could not be fetched');
    return fail(`no A2A agent card${insteadNote(v)}`);
  },
};
