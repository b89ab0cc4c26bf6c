// `npm start`'s entry. It turns on Node's compile cache before anything else is loaded, then
// starts the service (start.ts). Without the cache every start strips the types of each of
// our modules again and compiles them from nothing, about a third of a cold start
// (bench/results.md); with it a restart reads both from disk. The cache is keyed by each
// file's content, so a changed file is never run stale. It lives in NODE_COMPILE_CACHE if set
// (give each deployed image one that is filled at build time), else in the OS's temporary
// folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be written is
// ignored by Node, never an error.
//
// This one file is JavaScript, not TypeScript: Node strips the entry's types before the entry
// can turn the cache on, and loading its type stripper for that (amaro, a WebAssembly module)
// cost about 90 ms of every start. With a plain entry and a warm cache no start loads it at
// all (bench/results.md). It has nothing to type.
import { enableCompileCache, flushCompileCache } from 'node:module';

enableCompileCache();
await import('./start.ts');
// Listening now: write what was compiled, so an instance that is later killed (SIGKILL, OOM)
// still leaves a warm cache behind. Modules first loaded by a request are written at exit.
flushCompileCache();
