import type { CheckDef } from '../types.ts';
import { manifestProbeState } from '../manifest.ts';
import { gate, inconclusive, pass } from './util.ts';

/**
 * A discovery manifest (SEP-1649 or a server card) is published. Advisory: none
 * is in the core spec yet, so this check passes or stays inconclusive, never fails.
 */
export const check: CheckDef = {
  id: 'mcp.discovery.manifest',
  title: 'A discovery manifest is published',
  level: 'may',
  spec: 'https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1649',
  evaluate(ev) {
    const hit = ev.manifestProbes.find((p) => manifestProbeState(p) === 'found');
    if (ev.manifest && hit) return pass(`Manifest at ${ev.manifest.url} (format ${ev.manifest.format}).`, hit);
    const states = ev.manifestProbes.map(manifestProbeState);
    // Manifests are proposals outside the core spec: not publishing one is not a fault.
    if (states.length > 0 && states.every((s) => s === 'absent')) {
      return inconclusive('not_applicable', `No manifest at ${ev.manifestProbes.map((p) => p.label.replace(/^GET /, '')).join(', ')} (optional).`, ev.manifestProbes[0]);
    }
    const unsure = ev.manifestProbes.find((p) => manifestProbeState(p) === 'unknown');
    return (unsure && gate(unsure, 'Manifest')) ?? inconclusive('ambiguous', 'The manifest locations gave no clear answer (server errors or redirects).', unsure);
  },
};
