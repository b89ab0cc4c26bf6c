// The reads mounted first in production (src/app.ts) are named by operationId: a renamed
// operation would silently fall back to the contract's order, so each name must exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOT_READS } from '../../src/app.ts';
import { operations } from '../../generated/operations.ts';

test('every read mounted first names a GET of the contract', () => {
  for (const id of HOT_READS) {
    const op = operations.find((o) => o.operationId === id);
    assert.ok(op, `${id} is not an operationId of openapi.yaml`);
    assert.equal(op.method, 'get', id);
  }
});
