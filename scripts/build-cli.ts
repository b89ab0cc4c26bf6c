// `npm run build:cli` (also `prepare`, so `npm ci` and `npm publish` produce it):
// bundles the CLI into dist/cli.mjs for the package `bin`. Code splitting keeps the
// entry tiny: --help and --version parse only the argument parser, and the scan
// machinery (client, validators, undici, engine) lives in chunks loaded on demand.
import { build, type Plugin } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// `--outdir <dir>` builds elsewhere (the CLI tests build a private copy so parallel test files never race on dist/).
const flag = process.argv.indexOf('--outdir');
const outdir = flag > 0 && process.argv[flag + 1] ? path.resolve(process.argv[flag + 1]!) : path.join(root, 'dist');
// `--api-default <url>` (from `npm run pack`): the hosted API a packaged CLI uses when neither
// --api nor AGENT_READINESS_API is given. Without it a hosted scan must be told (no silent localhost).
const apiFlag = process.argv.indexOf('--api-default');
const apiDefault = apiFlag > 0 ? process.argv[apiFlag + 1] : undefined;
if (apiFlag > 0) {
  const ok = (() => { try { return ['http:', 'https:'].includes(new URL(apiDefault ?? '').protocol); } catch { return false; } })();
  if (!ok) {
    console.error(`--api-default needs an http(s) URL, not "${apiDefault ?? ''}"`);
    process.exit(2);
  }
}
fs.rmSync(path.join(outdir, 'cli-chunks'), { recursive: true, force: true });

// Some modules load a CommonJS package through createRequire(import.meta.url)('pkg'), which a
// bundler cannot follow; turn each into a static import so the package is bundled too.
const staticRequires: Plugin = {
  name: 'static-create-require',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      const calls = /createRequire\(import\.meta\.url\)\((['"])([^'"]+)\1\)/g;
      if (!calls.test(source)) return undefined;
      const imports: string[] = [];
      const contents = source.replace(calls, (_m, _q: string, pkg: string) => {
        const id = `__cliRequired${imports.length}`;
        imports.push(`import ${id} from ${JSON.stringify(pkg)};`);
        return id;
      });
      return { contents: `${imports.join('\n')}\n${contents}`, loader: 'ts' };
    });
  },
};

// main.ts reads its version from the root package.json; the bundle (and the published CLI)
// gets the version alone, not the private service package's name and dependency list.
const versionOnly: Plugin = {
  name: 'package-json-version-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
      if (path.resolve(args.path) !== path.join(root, 'package.json')) return undefined;
      const { version } = JSON.parse(fs.readFileSync(args.path, 'utf8')) as { version: string };
      return { contents: JSON.stringify({ version }), loader: 'json' };
    });
  },
};

await build({
  plugins: [staticRequires, versionOnly],
  entryPoints: { cli: path.join(root, 'src/cli/main.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'cli-chunks/[name]-[hash]',
  // Bundled CommonJS dependencies call require() for Node built-ins; ESM has none, so give them one.
  banner: { js: "import { createRequire as __cliCreateRequire } from 'node:module'; const require = __cliCreateRequire(import.meta.url);" },
  legalComments: 'none',
  // Whitespace only: identifiers and syntax stay as written, so a stack trace still names the code; a
  // third of the bytes go (the generated validators are the bulk), keeping the package under its cap.
  minifyWhitespace: true,
  ...(apiDefault ? { define: { __AGENT_READINESS_API_DEFAULT__: JSON.stringify(apiDefault) } } : {}),
  logLevel: 'warning',
});

// The shebang goes first, above the banner, so `npx agent-readiness` can exec the file.
const entry = path.join(outdir, 'cli.mjs');
const text = fs.readFileSync(entry, 'utf8').replace(/^#!.*\n/, '');
fs.writeFileSync(entry, `#!/usr/bin/env node\n${text}`);
fs.chmodSync(entry, 0o755);
