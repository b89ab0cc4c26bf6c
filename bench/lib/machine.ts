// The machine a benchmark ran on, in one line for bench/results.md, and what a process of it used.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function describeMachine(): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  return `${os.availableParallelism()} CPUs (nproc; ${model}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export const nowIso = (): string => new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z');

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}
