// Our own origin, scanned by our own CLI in localhost mode, must be the best-scoring site we
// know: at least 95 with headline `open`. Everything the rubric looks for is served by the
// service itself (robots.txt with explicit AI groups and a Content-Signal, sitemap.xml,
// llms.txt, Markdown for / and the documents, security.txt, Link headers, the RFC 9727 API
// catalog, the MCP server card, structured data on /).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCli, runCli, startServiceProcess, type ServiceProcess } from './harness.ts';

describe('dogfood: the service scanned by its own CLI', () => {
  let cli: ReturnType<typeof buildCli>;
  let svc: ServiceProcess;

  before(async () => {
    cli = buildCli();
    svc = await startServiceProcess({ LOG_LEVEL: 'info' });
  });
  after(async () => {
    await svc?.stop();
    cli?.cleanup();
  });

  test('our own origin scores at least 95 with headline open', async (t) => {
    const port = new URL(svc.url).port;
    const run = await runCli(cli.cli, ['scan', `localhost:${port}`, '--format', 'json'], {});
    assert.equal(run.code, 0, run.stderr);
    const report = (JSON.parse(run.stdout) as { report: { headline: string; score: { value: number | null }; checks: Array<{ id: string; status: string; weight: number; credit?: number; detail?: string }> } }).report;
    // Every check short of a full pass, partial credit included, so a drop says where it came from.
    const short = report.checks.filter((c) => c.status !== 'pass' || (c.credit !== undefined && c.credit < 1))
      .map((c) => `  ${c.id} ${c.status}${c.credit !== undefined ? ` (credit ${c.credit})` : ''} (weight ${c.weight}): ${c.detail ?? ''}`);
    const summary = `score ${report.score.value}, headline ${report.headline}; short of a full pass:\n${short.join('\n')}`;
    t.diagnostic(summary);
    assert.equal(report.headline, 'open', summary);
    assert.ok((report.score.value ?? 0) >= 95, summary);
  });
});
