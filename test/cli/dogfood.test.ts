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
    // The origin is scanned as localhost, as a developer would, so it names itself that way too.
    svc = await startServiceProcess({ LOG_LEVEL: 'info', BASE_URL: 'http://localhost:{port}' });
  });
  after(async () => {
    await svc?.stop();
    cli?.cleanup();
  });

  test('our own origin scores at least 95 with headline open under rubric-v1.2', async (t) => {
    const port = new URL(svc.url).port;
    const run = await runCli(cli.cli, ['scan', `localhost:${port}`, '--format', 'json'], {});
    assert.equal(run.code, 0, run.stderr);
    type Checks = Array<{ id: string; status: string; weight: number; credit?: number; detail?: string; generation?: string }>;
    const report = (JSON.parse(run.stdout) as { report: { headline: string; score: { value: number | null; rubricVersion: string }; checks: Checks; preview?: { score: { value: number | null }; checks: Checks } } }).report;
    // Every check short of a full pass, partial credit included, so a drop says where it came from.
    const short = report.checks.filter((c) => c.status !== 'pass' || (c.credit !== undefined && c.credit < 1))
      .map((c) => `  ${c.id} ${c.status}${c.credit !== undefined ? ` (credit ${c.credit})` : ''} (weight ${c.weight}): ${c.detail ?? ''}`);
    const summary = `score ${report.score.value}, headline ${report.headline}; short of a full pass:\n${short.join('\n')}`;
    t.diagnostic(summary);
    assert.equal(report.headline, 'open', summary);
    assert.ok((report.score.value ?? 0) >= 95, summary);

    // Scored with rubric-v1.2, the default: every check it added that can be decided locally passes on our origin.
    assert.equal(report.score.rubricVersion, 'rubric-v1.2', summary);
    for (const id of ['discovery.llms-txt-v2', 'discovery.ard', 'discovery.mcp-card-shape', 'policy.preferences-agree']) {
      assert.equal(report.checks.find((c) => c.id === id)?.status, 'pass', `${id}\n${summary}`);
    }
    // The next rubric too.
    const added = (report.preview?.checks ?? []).filter((c) => !report.checks.some((k) => k.id === c.id));
    const previewSummary = `next rubric ${report.preview?.score.value}:\n${added.map((c) => `  ${c.id} ${c.status}${c.generation ? ` [${c.generation}]` : ''}: ${c.detail ?? ''}`).join('\n')}`;
    t.diagnostic(previewSummary);
    assert.ok((report.preview?.score.value ?? 0) >= 95, previewSummary);
    // issue 37 item 1: rubric-v1.2 reads our MCP catalog and the card it lists (not the legacy path), at full credit.
    const mcpCard = report.checks.find((c) => c.id === 'discovery.mcp-card');
    assert.equal(mcpCard?.status, 'pass', mcpCard?.detail);
    assert.equal(mcpCard?.credit, undefined, `full credit: ${mcpCard?.detail}`);
    assert.match(mcpCard?.generation ?? '', /^MCP catalog/, mcpCard?.detail);
    assert.match(mcpCard?.detail ?? '', /\/mcp\/server-card \(listed by \/\.well-known\/mcp\/catalog\.json\)/);
  });
});
