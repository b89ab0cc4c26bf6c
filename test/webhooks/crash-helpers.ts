// What the webhook crash tests share: the service's composition root in child processes
// (child-service.ts) that the tests SIGKILL, their JSON log lines, and a wait on a condition.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Children {
  start(env: Record<string, string>, logFile: string): ChildProcess;
  killAll(): Promise<void>;
}

export function children(): Children {
  const all: ChildProcess[] = [];
  return {
    start(env, logFile) {
      const c = spawn(process.execPath, [path.join(import.meta.dirname, 'child-service.ts')], { env: { ...process.env, ...env, LOG_FILE: logFile }, stdio: ['ignore', 'inherit', 'inherit'] });
      all.push(c);
      return c;
    },
    async killAll() {
      for (const c of all) await killed(c);
    },
  };
}

export const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg: string; [k: string]: unknown }) : []);

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 90_000, everyMs = 50): Promise<T> {
  const stop = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > stop) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const killed = (c: ChildProcess) => new Promise<void>((resolve) => {
  if (c.exitCode !== null || c.signalCode !== null) return resolve();
  c.once('exit', () => resolve());
  c.kill('SIGKILL');
});
