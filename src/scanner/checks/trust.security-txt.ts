// Standard: RFC 9116 (security.txt).
import { fileState } from '../evidence.ts';
import { insteadNote } from '../file-judge.ts';
import { fail, inconclusive, partial, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'trust.security-txt', name: 'security.txt is published and current', category: 'trust', weight: 1, profiles: ['general', 'dev-platform', 'docs'], since: 'rubric-v1.0',
  standard: 'RFC 9116',
  why: 'A current security contact tells anyone (agent operators included) how to report a problem.',
  fix: 'Serve /.well-known/security.txt with Contact: and an Expires: date in the future.',
  evaluate(ev) {
    const v = ev.files['/.well-known/security.txt'];
    const st = fileState(v);
    if (st === 'unknown') return inconclusive('/.well-known/security.txt could not be fetched');
    if (st === 'absent' || !v) return fail(`no /.well-known/security.txt${insteadNote(v)}`);
    const contact = /^contact:\s*\S+/im.test(v.body);
    const expires = /^expires:\s*(\S+)/im.exec(v.body)?.[1];
    const future = expires !== undefined && Date.parse(expires) > ev.scannedAt.getTime();
    if (contact && future) return pass('Contact and a future Expires');
    return partial(500, !contact ? 'no Contact field' : expires ? `expired on ${expires}` : 'no Expires field');
  },
};
