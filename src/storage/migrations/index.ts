// Ordered list of migrations. Append only: a migration that has shipped is never edited.
import type { Knex } from 'knex';
import * as m001 from './001-scans.ts';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export const migrations: Migration[] = [{ name: '001-scans', ...m001 }];
