// Dependencies point one way: handlers (and http) over services (scans, mcp, mcp-scan,
// report, mail, operator, docs) over the engine (scanner) over storage and net. Checked in
// .ci/run by `npm run lint:deps`; a cycle or an upward import fails the build.
/** @type {import('dependency-cruiser').IConfiguration} */
const ABOVE_ENGINE = '^src/(app|server|services|main|handlers|http|scans|mcp|mcp-scan|report|mail|operator|docs|cli|keys|changes|webhooks|watches)([./]|$)';
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Import cycles hide the order of initialisation and the direction of dependencies.', from: { path: '^src' }, to: { circular: true } },
    { name: 'storage-and-net-at-the-bottom', severity: 'error', comment: 'storage and net import nothing above them.', from: { path: '^src/(storage|net)/' }, to: { path: `${ABOVE_ENGINE}|^src/scanner/` } },
    { name: 'engine-below-services', severity: 'error', comment: 'The scan engine knows nothing of HTTP, services or presentation.', from: { path: '^src/scanner/' }, to: { path: ABOVE_ENGINE } },
    { name: 'services-below-handlers', severity: 'error', comment: 'Services never reach up into handlers, the HTTP pipeline or the composition root.', from: { path: '^src/(scans|mcp|mcp-scan|report|mail|operator|docs|keys|changes|webhooks|watches)/' }, to: { path: '^src/(app|server|services|main|handlers|http)([./]|$)' } },
    { name: 'jobs-know-no-scans', severity: 'error', comment: 'The job engine (src/jobs) is infrastructure: it knows no scan, service, HTTP or storage, only its port and its two adapters.', from: { path: '^src/jobs/' }, to: { path: `${ABOVE_ENGINE}|^src/(scanner|storage|net)/` } },
    { name: 'bottom-knows-no-jobs', severity: 'error', comment: 'storage, net and the engine never enqueue work.', from: { path: '^src/(storage|net|scanner)/' }, to: { path: '^src/jobs/' } },
    { name: 'no-tests-from-src', severity: 'error', from: { path: '^src' }, to: { path: '^(test|bench)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
