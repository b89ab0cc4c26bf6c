/** The checklist registry: one file per check, named by its id, each citing the spec it enforces. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { MCP_CHECKS } from '../../src/mcp-scan/checks/index.ts';

const dir = new URL('../../src/mcp-scan/checks/', import.meta.url);

test('mcp registry: every check file is registered once, under its file name', () => {
  const files = fs.readdirSync(dir).filter((f) => f.startsWith('mcp.')).map((f) => f.replace(/\.ts$/, '')).sort();
  const ids = MCP_CHECKS.map((c) => c.id);
  assert.deepEqual([...ids].sort(), files);
  assert.equal(new Set(ids).size, ids.length);
});

test('mcp registry: each check cites an https spec URL and has a unique title and a level', () => {
  for (const c of MCP_CHECKS) {
    assert.equal(new URL(c.spec).protocol, 'https:', c.id);
    assert.ok(['must', 'should', 'may'].includes(c.level), c.id);
  }
  assert.equal(new Set(MCP_CHECKS.map((c) => c.title)).size, MCP_CHECKS.length);
});
