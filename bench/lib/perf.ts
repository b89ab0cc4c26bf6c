// The service's whole CPU by component, from Linux perf: cpu-clock samples of every thread of
// the process, the kernel's work on its behalf included. V8's --cpu-prof sees only the main
// thread's JavaScript and the native calls it makes, so it leaves out the kernel's share of
// socket work, V8's helper threads (concurrent marking, parallel scavenges) and time OpenSSL or
// malloc spend outside a sampled JS frame: what the profile misses is what this table shows.
// Needs `perf` and permission to sample another process; `perfUnavailable` says why not.
import { spawn, spawnSync } from 'node:child_process';

/** Why perf cannot be used here, or null when it can. */
export function perfUnavailable(): string | null {
  const probe = spawnSync('perf', ['stat', '-e', 'cpu-clock', '--', 'true'], { encoding: 'utf8' });
  if (probe.error) return `perf is not installed (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})`;
  if (probe.status !== 0) return `perf cannot sample here: ${(probe.stderr || '').trim().split('\n')[0] ?? `exit ${probe.status}`}`;
  return null;
}

/** Starts sampling `pid` into `file`; the returned function stops it once perf has written the file. */
export async function samplePid(pid: number, file: string, hz = 999): Promise<() => Promise<void>> {
  const perf = spawn('perf', ['record', '--quiet', '-e', 'cpu-clock', '-F', String(hz), '-p', String(pid), '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  perf.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => perf.once('exit', resolve));
  // perf attaches within a few milliseconds; it prints nothing when it has, so wait a moment
  // (this runs before the measured burst, never inside it).
  await new Promise((r) => setTimeout(r, 300));
  if (perf.exitCode !== null) throw new Error(`perf record exited at once: ${stderr.trim()}`);
  return async () => {
    perf.kill('SIGINT');
    const code = await exited;
    if (code !== 0 && code !== null) throw new Error(`perf record failed (${code}): ${stderr.trim()}`);
  };
}

/** Ordered: the first rule a sample's library and symbol match names its component. */
const COMPONENTS: Array<[name: string, test: (dso: string, sym: string) => boolean]> = [
  ['kernel (system calls, TCP over loopback, page faults)', (dso, sym) => dso.startsWith('[kernel') || sym.startsWith('[k]')],
  // V8's collector: the scavenger, the marker, the sweeper and their visitors, on any thread.
  ['garbage collection (V8, every thread)', (dso, sym) => dso === 'node' && /v8::internal::(\w+::)*(Scaveng|\w*Marking|MarkCompact|Sweep|Evacuat|\w*Collector|RememberedSet|SlotSet|\w*Space\b|\w*Space::|FreeList|MemoryChunk|MutablePageMetadata|PageMetadata|Heap::|HeapObject::SizeFromMap|BodyDescriptorBase::Iterate\w*<v8::internal::\w*(Visitor|Scaveng|Marking))/.test(sym)],
  // Optimising and baseline compilers, the parser and deoptimisation: the price of warming up,
  // paid mostly in a process's first minutes (bench/concurrent-scans.ts measures both).
  ['V8 compilers (optimising JavaScript, mostly on helper threads)', (dso, sym) => dso === 'node' && /v8::internal::(compiler|maglev|turboshaft|interpreter|baseline)::|v8::internal::(Compiler|\w*Parser\b|Parser::|Scanner::|BytecodeGenerator|\w*Compilation\w*|OptimizingCompileDispatcher|Deoptimizer|TranslatedState|Zone::)|std::\S*<v8::internal::(compiler|maglev|turboshaft)::/.test(sym)],
  // Everything else of V8 and Node has a namespace or prefix (below); the plain C symbols left
  // in the node binary are those of the OpenSSL it links statically.
  ['JavaScript (compiled code, V8 builtins and runtime)', (dso, sym) => dso.startsWith('[JIT]') || dso.startsWith('perf-') || /\] (JS:|Builtins_|v8::|Runtime_|LazyCompile|Function:|Stub:|RegExp)/.test(sym)],
  ['Node and libuv native code (streams, HTTP parser, URL, UTF-8)', (dso, sym) => dso === 'node' && /\] (node::|uv_|uv__|llhttp|simdutf|ada::|napi_|nghttp2|ares_|absl::|icu_|cppgc::|std::|operator new|operator delete|(in|de)flate|crc32|adler32|Brotli|uvwasi)/.test(sym)],
  ['TLS and crypto (OpenSSL)', (dso) => dso === 'node'],
  ['memory allocation and copies (libc)', (dso, sym) => dso.startsWith('libc') && /malloc|free|_int_|unlink_chunk|consolidate|realloc|calloc|tcache|arena|mem(cpy|move|set|cmp)|str(cmp|len)/.test(sym)],
  ['native add-ons (better-sqlite3)', (dso) => dso.endsWith('.node')],
  ['other (libc system-call wrappers, libstdc++, threads)', () => true],
];

export const PERF_COMPONENTS: readonly string[] = COMPONENTS.map(([name]) => name);

/** Each component's share (0..1) of the samples in `file`. */
export function perfShares(file: string): Map<string, number> {
  const report = spawnSync('perf', ['report', '-i', file, '--stdio', '--no-children', '--sort', 'dso,sym', '-t', '\t'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (report.status !== 0) throw new Error(`perf report failed: ${report.stderr}`);
  const out = new Map<string, number>(PERF_COMPONENTS.map((c) => [c, 0]));
  let total = 0;
  for (const line of report.stdout.split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    const [pct, dso, sym] = line.split('\t').map((s) => s.trim());
    const share = Number.parseFloat(pct ?? '');
    if (!Number.isFinite(share) || dso === undefined || sym === undefined) continue;
    const name = COMPONENTS.find(([, t]) => t(dso, sym))![0];
    out.set(name, out.get(name)! + share);
    total += share;
  }
  if (total === 0) throw new Error(`perf recorded no samples in ${file}`);
  for (const [k, v] of out) out.set(k, v / total);
  return out;
}
