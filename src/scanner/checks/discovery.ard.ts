// Standard: ARD (Agentic Resource Discovery) v0.91, 2026-08-26 (ards-project/ard-spec spec/ard.md).
import { insteadNote } from '../file-judge.ts';
import { fileState, parseJson } from '../evidence.ts';
import { ALL, fail, inconclusive, matched, partial, pass, type CheckDefinition } from './define.ts';

export const ARD_PATH = '/.well-known/ard.json';
/** The name ARD v0.91 renamed away from; Lighthouse and isitagentready still read it. */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';

/** Problems of an ARD document, empty when it holds; warnings are SHOULDs. */
export function ardProblems(doc: unknown): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const entries = (doc as { entries?: unknown } | undefined)?.entries;
  if (!Array.isArray(entries) || entries.length === 0) return { errors: ['no "entries" array'], warnings };
  entries.slice(0, 50).forEach((e: Record<string, unknown> | null, i) => {
    const at = `entries[${i}]`;
    if (!e || typeof e !== 'object') return void errors.push(`${at} is not an object`);
    if (typeof e.identifier !== 'string' || !/^urn:air:[^:]+:[^:]+:.+/.test(e.identifier)) errors.push(`${at}.identifier is not urn:air:<publisher>:<namespace>:<name>`);
    if (typeof e.displayName !== 'string') errors.push(`${at}.displayName is missing`);
    if (typeof e.type !== 'string' || !e.type.includes('/')) errors.push(`${at}.type is not a media type`);
    if ((e.url === undefined) === (e.data === undefined)) errors.push(`${at} needs exactly one of url and data`);
    const q = e.representativeQueries;
    if (!Array.isArray(q) || q.length < 2 || q.length > 5) warnings.push(`${at} should list 2-5 representativeQueries`);
  });
  return { errors, warnings };
}

export const check: CheckDefinition = {
  id: 'discovery.ard', name: 'An ARD catalog lists the site\'s agent resources', category: 'discovery', weight: 2, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'ARD v0.91 (https://github.com/ards-project/ard-spec/blob/main/spec/ard.md): /.well-known/ard.json, rel="ard", robots.txt Agentmap',
  why: 'ARD (Google, Microsoft, Hugging Face) is the catalog agents read to find a site\'s MCP servers, APIs and agents; its consumers must read /.well-known/ard.json, while Lighthouse and isitagentready still probe the older /.well-known/ai-catalog.json (ards-project/ard-spec spec/ard.md §5.1, v0.91 of 2026-08-26; GoogleChrome/lighthouse core/gather/gatherers/agentic/ard.js).',
  fix: 'Publish /.well-known/ard.json with entries {identifier: "urn:air:…", displayName, type, url, representativeQueries}; keep /.well-known/ai-catalog.json as a copy while older readers use it.',
  evaluate(ev) {
    const ard = ev.files[ARD_PATH];
    const old = ev.files[AI_CATALOG_PATH];
    const hint = ev.robots.extensions.find((e) => e.field === 'agentmap')?.value ?? ev.homeLinks.find((l) => l.rel.includes('ard') || l.rel.includes('ai-catalog'))?.href;
    if (fileState(ard) === 'present') {
      const { errors, warnings } = ardProblems(parseJson(ard));
      if (errors.length) return matched('ARD v0.91 (ard.json)', fail(`${ARD_PATH}: ${errors.slice(0, 3).join('; ')}`));
      const both = fileState(old) === 'present' ? '; ai-catalog.json is served too, for older readers' : '';
      return matched('ARD v0.91 (ard.json)', warnings.length ? partial(850, `${ARD_PATH} holds but ${warnings[0]}${both}`) : pass(`${ARD_PATH} lists its entries${both}`));
    }
    if (fileState(old) === 'present') {
      const { errors } = ardProblems(parseJson(old));
      if (errors.length) return matched('ai-catalog.json (before ARD v0.91)', fail(`${AI_CATALOG_PATH}: ${errors.slice(0, 3).join('; ')}`));
      return matched('ai-catalog.json (before ARD v0.91)', partial(500, `only the older ${AI_CATALOG_PATH} is served; ARD v0.91 readers must fetch ${ARD_PATH}`));
    }
    if (fileState(ard) === 'unknown' || fileState(old) === 'unknown') return inconclusive('the ARD paths could not be fetched');
    if (hint) return inconclusive(`an ARD catalog is announced at ${hint.slice(0, 200)} but not at the well-known path; this scan reads only the well-known path`);
    return inconclusive(`no ARD catalog${insteadNote(ard) || insteadNote(old)}: not applicable`);
  },
};
