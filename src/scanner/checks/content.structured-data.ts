// Standard: schema.org vocabulary in JSON-LD 1.1 (W3C).
import { ALL, fail, homeMissing, partial, pass, type CheckDefinition } from './define.ts';

function typed(doc: unknown): boolean {
  const items = Array.isArray(doc) ? doc : [doc];
  return items.some((d) => {
    if (!d || typeof d !== 'object') return false;
    const o = d as Record<string, unknown>;
    const ctx = JSON.stringify(o['@context'] ?? '');
    if (Array.isArray(o['@graph'])) return /schema\.org/.test(ctx) && (o['@graph'] as unknown[]).some((g) => g && typeof g === 'object' && '@type' in g);
    return /schema\.org/.test(ctx) && '@type' in o;
  });
}

export const check: CheckDefinition = {
  id: 'content.structured-data', name: 'Structured data describes the page', category: 'content', weight: 4, profiles: ALL, since: 'rubric-v1.0',
  standard: 'JSON-LD 1.1 (W3C) with the schema.org vocabulary',
  why: 'Structured data states what the page is (organisation, article, product, software) without the agent having to infer it.',
  fix: 'Add a <script type="application/ld+json"> block with a schema.org @context and @type.',
  evaluate(ev) {
    const missing = homeMissing(ev);
    if (missing) return missing;
    let broken = 0;
    for (const block of ev.page!.jsonLd) {
      try {
        if (typed(JSON.parse(block))) return pass('JSON-LD with a schema.org type');
      } catch {
        broken++;
      }
    }
    if (broken) return partial(500, `${broken} JSON-LD block(s) do not parse`);
    if (ev.page!.jsonLd.length || ev.page!.hasMicrodata) return partial(500, 'structured data present but without a schema.org JSON-LD type');
    return fail('no structured data');
  },
};
