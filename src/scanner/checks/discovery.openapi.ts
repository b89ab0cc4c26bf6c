// Standard: OpenAPI Specification 3.x; RFC 8631 service-desc link relation.
import { insteadNote } from '../file-judge.ts';
import { fileState, parseJson } from '../evidence.ts';
import { isOpenApi, serviceDescUrls } from '../features.ts';
import { fail, inconclusive, partial, pass, type CheckDefinition } from './define.ts';

const GUESSED = ['/openapi.json', '/.well-known/openapi.json'];

export const check: CheckDefinition = {
  id: 'discovery.openapi', name: 'An OpenAPI description is discoverable', category: 'discovery', weight: 6, profiles: ['dev-platform', 'docs'], since: 'rubric-v1.0',
  standard: 'OpenAPI Specification 3.x; RFC 8631 (service-desc)',
  why: 'An OpenAPI description lets an agent call the API correctly instead of guessing from prose.',
  fix: 'Publish an OpenAPI 3 document and link it with rel="service-desc" (Link header, <link> or the api-catalog).',
  evaluate(ev) {
    for (const url of serviceDescUrls(ev)) {
      const v = Object.values(ev.followups).find((f) => f.record.url === url) ?? Object.values(ev.files).find((f) => f.record.url === url);
      if (isOpenApi(parseJson(v))) return pass(`OpenAPI linked with service-desc: ${url}`);
    }
    for (const path of GUESSED) if (isOpenApi(parseJson(ev.files[path]))) return partial(500, `OpenAPI found only at the conventional path ${path}, not linked`);
    const states = GUESSED.map((p) => fileState(ev.files[p]));
    if (states.includes('unknown')) return inconclusive('conventional OpenAPI paths could not be fetched');
    return fail(`no OpenAPI 3 description linked or at a conventional path${GUESSED.map((p) => insteadNote(ev.files[p])).find(Boolean) ?? ''}`);
  },
};
