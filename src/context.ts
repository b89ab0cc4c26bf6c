// What every handler receives besides the request: built once in src/main.js (or by a
// test), never imported as a singleton.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

export interface AppContext {
  config: Config;
  db: Knex;
  log: Logger;
  /** The bundled OpenAPI document, as served at /openapi.json. */
  spec: Record<string, unknown>;
  /** Injected so tests can move time (attach windows, coalescing). */
  now: () => Date;
}
