/**
 * `agent-readiness` entry point. Only the argument parser is loaded up front so
 * `--help`, `--version` and usage errors print in a few milliseconds; the scan
 * machinery (typed client, validators, undici, the engine) is imported lazily.
 */
import pkg from '../../package.json' with { type: 'json' };
import { parseCli, USAGE } from './args.ts';
import { isBatchCommand, parseBatch } from './batch-args.ts';
import { isChangesCommand, parseChanges } from './changes-args.ts';

const EXIT_COULD_NOT_TEST = 2;

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const parsed = isBatchCommand(argv) ? parseBatch(argv, process.env) : isChangesCommand(argv) ? parseChanges(argv, process.env) : parseCli(argv, process.env);
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'version':
      process.stdout.write(`${pkg.version}\n`);
      return 0;
    case 'usage-error':
      process.stderr.write(`agent-readiness: ${parsed.message}\nRun "agent-readiness --help" for usage.\n`);
      // batch's usage errors carry their own code (1); scan's and diff's are "could not test".
      return ('exit' in parsed ? (parsed.exit as number) : undefined) ?? EXIT_COULD_NOT_TEST;
    case 'diff': {
      const { runDiff } = await import('./diff.ts');
      return runDiff(parsed.options, { stdout: process.stdout, stderr: process.stderr, env: process.env, version: pkg.version });
    }
    case 'batch': {
      if (tooOldNode()) return EXIT_COULD_NOT_TEST;
      const { runBatch } = await import('./batch.ts');
      return runBatch(parsed.options, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, version: pkg.version });
    }
    case 'changes': {
      if (tooOldNode()) return EXIT_COULD_NOT_TEST;
      const { runChanges } = await import('./changes.ts');
      return runChanges(parsed.options, { stdout: process.stdout, stderr: process.stderr, env: process.env, version: pkg.version });
    }
    case 'scan': {
      if (tooOldNode()) return EXIT_COULD_NOT_TEST;
      const { runScan } = await import('./scan.ts');
      return runScan(parsed.options, parsed.local, {
        stdout: process.stdout, stderr: process.stderr, env: process.env, version: pkg.version,
      });
    }
  }
}

/** undici 8 (the probe egress and the API client) needs Node 22.19+; say so instead of failing deep inside. */
function tooOldNode(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return false;
  process.stderr.write(`agent-readiness: could not test: scans need Node.js 22.19 or newer (this is ${process.versions.node}).\n`);
  return true;
}

main().then(
  (code) => exitAfterFlush(code),
  (err: unknown) => {
    process.stderr.write(`agent-readiness: could not test: ${err instanceof Error ? err.message : String(err)}\n`);
    exitAfterFlush(EXIT_COULD_NOT_TEST);
  },
);

/** Exit explicitly (keep-alive sockets must not hold the process open) once stdout has drained. */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.exit(code));
}
