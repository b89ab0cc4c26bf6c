// bench/results.md is shared: each benchmark owns the text between its own markers
// (<!-- bench:NAME:start --> ... <!-- bench:NAME:end -->) and leaves the rest alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const FILE = new URL('../results.md', import.meta.url);

export function writeSection(name: string, markdown: string): void {
  const current = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '# Benchmark results\n';
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const a = current.indexOf(start);
  const b = current.indexOf(end);
  const next = a >= 0 && b > a ? current.slice(0, a) + block + current.slice(b + end.length) : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(FILE, next);
}
