// Summarises a V8 .cpuprofile: self time per function and per file, heaviest first.
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }

export function topCosts(file: string, n = 15): { byFunction: string[]; byFile: string[] } {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  for (const node of prof.nodes) {
    const t = self.get(node.id) ?? 0;
    const url = node.callFrame.url.replace(/^file:\/\/.*?\/(node_modules|src)\//, '$1/') || '(native)';
    const key = `${node.callFrame.functionName || '(anonymous)'} ${url}:${node.callFrame.lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + t);
    const pkg = url.startsWith('node_modules/') ? url.split('/').slice(0, url.split('/')[1]!.startsWith('@') ? 3 : 2).join('/') : url;
    files.set(pkg, (files.get(pkg) ?? 0) + t);
  }
  const top = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
  return { byFunction: top(fn), byFile: top(files) };
}
