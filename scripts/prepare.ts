// `prepare` (npm runs it after every local install): build the CLI bundle, dist/cli.mjs, so
// `npx agent-readiness` works in a checkout. A production install of the service
// (`npm ci --omit=dev`) has no bundler: esbuild is a devDependency, and the service never
// loads the CLI bundle. There this says so and succeeds, instead of failing the install.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let bundler = true;
try {
  require.resolve('esbuild');
} catch {
  bundler = false;
}
if (bundler) await import('./build-cli.ts');
else console.log('prepare: esbuild is not installed (a production install, npm ci --omit=dev), so the CLI bundle dist/cli.mjs is not built; the service does not use it.');
