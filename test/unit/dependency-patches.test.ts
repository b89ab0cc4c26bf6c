// Two performance fixes reach behind a dependency's public API, because upstream offers no
// way to get the same result (see each module's comment and bench/results.md):
//   - src/http/route-regexp-cache.ts memoises path-to-regexp for express-openapi-validator,
//     whose lookupRoute compiles every route of the contract on every request;
//   - src/storage/db.ts keeps better-sqlite3 prepared statements on knex's single SQLite
//     connection, because knex prepares each query anew.
// They are pinned to the exact versions they were written and verified against. When an
// upgrade moves a version, this test fails and names the patch to re-verify or delete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const versionOf = (from: string, pkg: string): string => {
  const entry = createRequire(require.resolve(from)).resolve(pkg);
  let dir = path.dirname(entry);
  for (;;) {
    try {
      const json = require(path.join(dir, 'package.json')) as { name?: string; version: string };
      if (json.name === pkg) return json.version;
    } catch { /* keep walking up */ }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json for ${pkg}`);
    dir = up;
  }
};

const PINS: Array<{ patch: string; from: string; pkg: string; version: string }> = [
  { patch: 'src/http/route-regexp-cache.ts (memoised path-to-regexp inside express-openapi-validator)', from: 'express-openapi-validator', pkg: 'express-openapi-validator', version: '5.6.2' },
  { patch: 'src/http/route-regexp-cache.ts (the path-to-regexp copy the validator loads)', from: 'express-openapi-validator', pkg: 'path-to-regexp', version: '8.4.2' },
  { patch: 'src/storage/db.ts reusePreparedStatements (knex prepares every SQLite query anew)', from: 'knex', pkg: 'knex', version: '3.3.0' },
  { patch: 'src/storage/db.ts reusePreparedStatements (better-sqlite3 statements kept per connection)', from: 'knex', pkg: 'better-sqlite3', version: '13.2.0' },
];

for (const pin of PINS) {
  test(`${pin.pkg} is still ${pin.version}, the version ${pin.patch} was verified against`, () => {
    assert.equal(versionOf(pin.from, pin.pkg), pin.version, `${pin.pkg} moved: re-verify or delete ${pin.patch}`);
  });
}
