/**
 * `agent-readiness` entry point. Only the argument parser is loaded up front so
 * `--help`, `--version` and usage errors print in a few milliseconds; the scan
 * machinery (typed client, validators, undici, the engine) is imported lazily.
 */
import pkg from '../../package.json' with { type: 'json' };
import { parseCli, USAGE } from './args.ts';

const EXIT_COULD_NOT_TEST = 2;

async function main(): Promise<number> {
  const parsed = parseCli(process.argv.slice(2), process.env);
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'version':
      process.stdout.write(`${pkg.version}\n`);
      return 0;
    case 'usage-error':
      process.stderr.write(`agent-readiness: ${parsed.message}\nRun "agent-readiness --help" for usage.\n`);
      return EXIT_COULD_NOT_TEST;
    case 'diff': {
      const { runDiff } = await import('./diff.ts');
      return runDiff(parsed.options, { stdout: process.stdout, stderr: process.stderr, env: process.env, version: pkg.version });
    }
    case 'scan': {
      // undici 8 (the probe egress and the API client) needs Node 22.19+; say so instead of failing deep inside.
      const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
      if (major < 22 || (major === 22 && minor < 19)) {
        process.stderr.write(`agent-readiness: could not test: scans need Node.js 22.19 or newer (this is ${process.versions.node}).\n`);
        return EXIT_COULD_NOT_TEST;
      }
      const { runScan } = await import('./scan.ts');
      return runScan(parsed.options, parsed.local, {
        stdout: process.stdout, stderr: process.stderr, env: process.env, version: pkg.version,
      });
    }
  }
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
