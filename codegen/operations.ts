// The operation table: one row per operationId with its method, paths and the x- settings
// the app applies before validation (body limit on the wire, CORS).
import type { OpenApiDoc } from './render.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface Row {
  operationId: string;
  method: string;
  path: string;
  expressPath: string;
  bodyLimit: number | null;
  cors: boolean;
  statuses: string[];
}

/** `/r/{scanId}/cli-vantage` -> `/r/:scanId/cli-vantage` (Express 5 / path-to-regexp 8). */
export function toExpressPath(p: string): string {
  return p.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

export function listOperations(doc: OpenApiDoc): Row[] {
  const rows: Row[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      if (typeof op.operationId !== 'string') throw new Error(`${method.toUpperCase()} ${p} has no operationId`);
      rows.push({
        operationId: op.operationId,
        method,
        path: p,
        expressPath: toExpressPath(p),
        bodyLimit: typeof op['x-body-limit'] === 'number' ? op['x-body-limit'] : null,
        cors: op['x-cors'] === true,
        statuses: Object.keys((op.responses as Record<string, unknown>) ?? {}),
      });
    }
  }
  return rows;
}

export function renderOperations(doc: OpenApiDoc): string {
  const rows = listOperations(doc);
  const ids = rows.map((r) => JSON.stringify(r.operationId)).join(' | ');
  return `export interface OperationRow {
  readonly operationId: OperationId;
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
  /** The path as the contract writes it. */
  readonly path: string;
  readonly expressPath: string;
  /** x-body-limit: request body limit in bytes counted on the wire. */
  readonly bodyLimit: number | null;
  /** x-cors: a machine-readable surface open to any origin. */
  readonly cors: boolean;
  /** Every response status the contract declares. */
  readonly statuses: readonly string[];
}

export type OperationId = ${ids};

export const operations: readonly OperationRow[] = ${JSON.stringify(rows, null, 2)};
`;
}
