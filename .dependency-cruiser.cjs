// Dependencies point one way: the composition root over handlers (and http) over services over
// the engine (scanner) over the infrastructure (storage, net, jobs, signing, config). The CLI is
// a program of its own beside them, bundled for npm (scripts/build-cli.ts): nothing it reaches
// may be the service's storage, mail, HTTP stack or composition root.
//
// Every entry of src/ sits in exactly one layer below; test/unit/dependency-rules.test.ts fails
// when one does not (a new folder must be placed here first), and feeds each rule a fixture
// tree that breaks it (test/fixtures/dependency-rules/<rule>/), expecting that rule to fire.
// Checked in .ci/run by `npm run lint:deps`.
const path = require('node:path');

/** Bottom to top. A folder named here that does not exist yet is harmless. */
const LAYERS = {
  infrastructure: ['storage', 'net', 'jobs', 'signing', 'log', 'security', 'config.ts', 'context.ts', 'errors.ts'],
  engine: ['scanner'],
  services: ['scans', 'mcp', 'mcp-scan', 'report', 'mail', 'docs', 'pages', 'operator', 'keys', 'batches', 'watches', 'webhooks', 'changes', 'feed', 'metrics', 'console'],
  handlers: ['handlers', 'http'],
  root: ['app.ts', 'server.ts', 'services.ts', 'start.ts', 'main.js'],
  cli: ['cli'],
};

/** A path regexp for the src/ entries of these layers (a folder and what is in it, or one file). */
const inLayers = (...names) => `^src/(${names.flatMap((n) => LAYERS[n]).map((e) => e.replace(/\./g, '\\.')).join('|')})(/|$)`;

/** What the CLI bundle may never reach: the service's storage, mail, jobs and HTTP side, and their packages. */
const NOT_IN_THE_CLI = [
  '^src/(storage|mail|jobs|handlers|http|operator)/',
  '^src/(app|server|services|start)\\.ts$',
  '^src/main\\.js$',
  'node_modules/(knex|express|express-openapi-validator|pg|better-sqlite3|ioredis|nodemailer)/',
].join('|');

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Import cycles hide the order of initialisation and the direction of dependencies.', from: { path: '^src' }, to: { circular: true } },
    { name: 'storage-and-net-at-the-bottom', severity: 'error', comment: 'storage and net import nothing of src but each other, the log and the error module.', from: { path: '^src/(storage|net)/' }, to: { path: '^src/', pathNot: '^src/(storage|net|log)/|^src/errors\\.ts$' } },
    { name: 'infrastructure-below-the-engine', severity: 'error', comment: 'storage, net, jobs, signing, config, context and errors know nothing of the engine or anything above it.', from: { path: inLayers('infrastructure') }, to: { path: inLayers('engine', 'services', 'handlers', 'root') } },
    { name: 'engine-below-services', severity: 'error', comment: 'The scan engine knows nothing of HTTP, services or presentation.', from: { path: inLayers('engine') }, to: { path: inLayers('services', 'handlers', 'root') } },
    { name: 'services-below-handlers', severity: 'error', comment: 'Services never reach up into handlers, the HTTP pipeline or the composition root.', from: { path: inLayers('services') }, to: { path: inLayers('handlers', 'root') } },
    // Handlers read the composition root's AppServices type (handlers/types.ts); nothing else of it.
    { name: 'handlers-below-the-root', severity: 'error', comment: 'Handlers never import the app, the server, the start-up or the composition root (its types aside).', from: { path: inLayers('handlers') }, to: { path: inLayers('root'), dependencyTypesNot: ['type-only'] } },
    { name: 'nothing-imports-the-cli', severity: 'error', comment: 'The CLI is a program of its own; the service never imports it.', from: { path: '^src/', pathNot: '^src/cli/' }, to: { path: '^src/cli/' } },
    { name: 'cli-bundle-without-the-service', severity: 'error', comment: 'Nothing the CLI reaches (its npm bundle) is storage, mail, jobs, the HTTP side, the composition root, knex or express.', from: { path: '^src/cli/' }, to: { path: NOT_IN_THE_CLI, reachable: true } },
    // The job engine is infrastructure of its own: it knows only its port, its two adapters and the config.
    { name: 'jobs-know-no-scans', severity: 'error', comment: 'The job engine (src/jobs) knows no scan, service, HTTP, storage, net or signing: only its port, its two adapters and the config.', from: { path: '^src/jobs/' }, to: { path: `${inLayers('engine', 'services', 'handlers', 'root')}|^src/(storage|net|signing)/` } },
    { name: 'bottom-knows-no-jobs', severity: 'error', comment: 'storage, net and the engine never enqueue work.', from: { path: '^src/(storage|net|scanner)/' }, to: { path: '^src/jobs/' } },
    { name: 'no-tests-from-src', severity: 'error', from: { path: '^src' }, to: { path: '^(test|bench)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // Absolute, so the rule fixtures (cruised from their own folder) resolve as the project does.
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};

// For the test that every entry of src/ is in a layer (not an option dependency-cruiser reads).
Object.defineProperty(module.exports, 'layers', { value: LAYERS, enumerable: false });
