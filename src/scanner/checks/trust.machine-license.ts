// Standard: RSL 1.0 (Really Simple Licensing, robots.txt License:); W3C TDMRep Community Group report.
import { fileState, parseJson } from '../evidence.ts';
import { fail, inconclusive, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'trust.machine-license', name: 'Licensing terms are machine-readable', category: 'trust', weight: 4, profiles: ['publisher'], since: 'rubric-v1.0',
  standard: 'RSL 1.0 (rslstandard.org); W3C TDMRep (2024)',
  why: 'Publishers can state reuse terms that crawlers can parse, instead of prose terms of service.',
  fix: 'Add a License: line to robots.txt pointing at an RSL document, or publish /.well-known/tdmrep.json.',
  evaluate(ev) {
    const license = ev.robots.extensions.find((e) => e.field === 'license');
    if (license) {
      const v = ev.followups['license'];
      if (v && fileState(v) === 'present' && /<rsl[\s>]/i.test(v.body)) return pass(`RSL licence at ${license.value}`);
      if (v && fileState(v) === 'unknown') return inconclusive('the RSL licence could not be fetched');
      return fail(`robots.txt names a licence (${license.value}) that is not a readable RSL document`);
    }
    const tdm = ev.files['/.well-known/tdmrep.json'];
    const doc = parseJson(tdm);
    if (Array.isArray(doc) && doc.some((d) => d && typeof d === 'object' && 'tdm-reservation' in d)) return pass('TDMRep file published');
    if (fileState(tdm) === 'present') return fail('/.well-known/tdmrep.json is not a TDMRep array');
    if (ev.home?.headers['tdm-reservation'] !== undefined || ev.page?.metaTdmReservation) return pass('TDMRep reservation declared on the page');
    if (fileState(tdm) === 'unknown' && ev.robots.state === 'unknown') return inconclusive('neither robots.txt nor tdmrep.json could be fetched');
    return fail('no RSL licence and no TDMRep declaration');
  },
};
