// Runs the README's "Verifying webhooks" snippets, exactly as printed, on a delivery a test
// world receiver got: the Node one in a child node process, the Python one in python3. Each
// prints "valid" or "invalid"; a missing python3 is reported to the caller, which skips loudly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const README = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The code block of `lang` in the README's "Verifying webhooks" section. */
export function snippet(lang: 'js' | 'python'): string {
  const start = README.indexOf('### Verifying webhooks');
  if (start < 0) throw new Error('the README has no "Verifying webhooks" section');
  const end = README.indexOf('\n## ', start);
  const section = README.slice(start, end < 0 ? undefined : end);
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  if (!m) throw new Error(`no ${lang} block under "Verifying webhooks"`);
  return m[1]!;
}

export interface Delivered { body: Buffer; header: string; secret: string }

function withFiles<T>(d: Delivered, run: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-snippet-'));
  try {
    fs.writeFileSync(path.join(dir, 'body'), d.body);
    return run(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function nodeVerifies(d: Delivered): boolean {
  return withFiles(d, (dir) => {
    const file = path.join(dir, 'verify.mjs');
    fs.writeFileSync(file, `${snippet('js')}\nimport { readFileSync } from 'node:fs';\nconsole.log(verifyWebhook(readFileSync(process.argv[2]), process.argv[3], process.argv[4]) ? 'valid' : 'invalid');\n`);
    return execFileSync(process.execPath, [file, path.join(dir, 'body'), d.header, d.secret], { encoding: 'utf8' }).trim() === 'valid';
  });
}

export function pythonVerifies(d: Delivered): boolean {
  return withFiles(d, (dir) => {
    const file = path.join(dir, 'verify.py');
    fs.writeFileSync(file, `${snippet('python')}\nimport sys\nprint("valid" if verify_webhook(open(sys.argv[1], "rb").read(), sys.argv[2], sys.argv[3]) else "invalid")\n`);
    return execFileSync('python3', [file, path.join(dir, 'body'), d.header, d.secret], { encoding: 'utf8' }).trim() === 'valid';
  });
}
