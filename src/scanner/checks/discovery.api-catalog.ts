// Standard: RFC 9727 (api-catalog well-known URI, linkset format of RFC 9264).
import { insteadNote } from '../file-judge.ts';
import { fileState, parseJson } from '../evidence.ts';
import { fail, inconclusive, partial, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'discovery.api-catalog', name: 'An API catalog is published', category: 'discovery', weight: 6, profiles: ['dev-platform'], since: 'rubric-v1.0',
  standard: 'RFC 9727 (/.well-known/api-catalog); RFC 9264 linksets',
  why: 'RFC 9727 lets agents enumerate a platform\'s APIs without scraping documentation.',
  fix: 'Publish /.well-known/api-catalog as application/linkset+json with service-desc links to your OpenAPI descriptions.',
  evaluate(ev) {
    const v = ev.files['/.well-known/api-catalog'];
    const st = fileState(v);
    if (st === 'unknown') return inconclusive('/.well-known/api-catalog could not be fetched');
    if (st === 'absent') return fail(`no /.well-known/api-catalog${insteadNote(v)}`);
    const doc = parseJson(v) as { linkset?: unknown } | undefined;
    if (!doc) return partial(300, '/.well-known/api-catalog is not JSON');
    const entries = Array.isArray(doc.linkset) ? (doc.linkset as Array<Record<string, unknown>>) : [];
    if (entries.some((e) => Array.isArray(e['service-desc']))) return pass(`linkset with ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`);
    return partial(500, 'JSON but not a linkset with service-desc entries');
  },
};
