// Standard: RFC 9309 §2.2 (protocol definition) and §2.5 (limits: at least 500 KiB parsed).
import { ALL, fail, partial, pass, skipped, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'policy.robots-valid', name: 'robots.txt follows RFC 9309 syntax', category: 'policy', weight: 3, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 9309 §2.2 and §2.5',
  why: 'Crawlers ignore lines they cannot parse and may stop after 500 KiB, so a malformed or oversized file does not say what its author meant.',
  fix: 'Use User-agent groups with Allow/Disallow lines, keep the file well under 500 KiB, and remove lines crawlers do not understand.',
  evaluate(ev) {
    const r = ev.robots;
    if (r.state !== 'parsed') return skipped('no robots.txt was read');
    if (r.truncated) return fail('robots.txt is larger than 500 KiB; crawlers may ignore the rest');
    if (r.groupCount === 0) return fail('robots.txt has no User-agent group');
    const meaningful = r.lines.filter((l) => l.replace(/#.*$/, '').trim() !== '').length;
    if (meaningful > 0 && r.unknownLines * 10 > meaningful) return partial(500, `${r.unknownLines} of ${meaningful} lines are not robots.txt fields`);
    return pass(`${r.groupCount} group(s), ${r.ruleLines} rule line(s)`);
  },
};
