// The machine a benchmark ran on, in one line for bench/results.md.
import os from 'node:os';

export function describeMachine(): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  return `${os.availableParallelism()} CPUs (nproc; ${model}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export const nowIso = (): string => new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z');
