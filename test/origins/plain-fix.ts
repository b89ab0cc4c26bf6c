// The first half of every origin snippet test: the plain server fails the check, is attributed
// from its server header, and the report's fix for it shows exactly the snippet the test loads next.
import assert from 'node:assert/strict';
import { scanLocally } from '../../src/cli/local.ts';
import type { OriginSnippet } from '../../src/scanner/data/platforms/index.ts';
import { startServer, type ServerKind } from './servers.ts';

export const scanOf = (port: number) => scanLocally({ scheme: 'http', host: '127.0.0.1', port, display: `127.0.0.1:${port}` }, {});

export async function assertPlainFix(kind: ServerKind, site: string, checkId: string, snippet: OriginSnippet): Promise<void> {
  const plain = await startServer(kind, site);
  let fix;
  try {
    const { report } = await scanOf(plain.port);
    const check = report.checks.find((c) => c.id === checkId)!;
    assert.equal(check.status, 'fail', `plain ${kind}: ${check.detail}`);
    assert.ok(report.platforms?.some((p) => p.id === kind && p.role === 'origin'), `${kind} is attributed from its server header: ${JSON.stringify(report.platforms)}`);
    fix = report.platformFixes?.find((f) => f.checkId === checkId && f.platform === kind);
  } finally {
    await plain.stop();
  }
  assert.ok(fix?.snippet, 'the report names the server\'s own fix, with the snippet to paste');
  for (const part of Object.values(snippet.parts)) assert.ok(fix.snippet.includes(part), 'the snippet shown is the one loaded below');
}
