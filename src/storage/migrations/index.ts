// Ordered list of migrations. Append only: a migration that has shipped is never edited.
import type { Knex } from 'knex';
import * as m001 from './001-scans.ts';
import * as m002 from './002-scan-extras.ts';
import * as m003 from './003-badge-index.ts';
import * as m004 from './004-signing-keys.ts';
import * as m005 from './005-mail-cap-index.ts';
import * as m006 from './006-api-keys.ts';
import * as m007 from './007-mail-mailbox.ts';
import * as m008 from './008-scan-files.ts';
import * as m009 from './009-batches.ts';
import * as m010 from './010-webhook-deliveries.ts';
import * as m011 from './011-watches.ts';
import * as m012 from './012-watch-run-mail.ts';
import * as m013 from './013-batch-links.ts';
import * as m014 from './014-delivery-redeliveries.ts';
import * as m015 from './015-change-feed.ts';
import * as m016 from './016-console.ts';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export const migrations: Migration[] = [
  { name: '001-scans', ...m001 },
  { name: '002-scan-extras', ...m002 },
  { name: '003-badge-index', ...m003 },
  { name: '004-signing-keys', ...m004 },
  { name: '005-mail-cap-index', ...m005 },
  { name: '006-api-keys', ...m006 },
  { name: '007-mail-mailbox', ...m007 },
  { name: '008-scan-files', ...m008 },
  { name: '009-batches', ...m009 },
  { name: '010-webhook-deliveries', ...m010 },
  { name: '011-watches', ...m011 },
  { name: '012-watch-run-mail', ...m012 },
  { name: '013-batch-links', ...m013 },
  { name: '014-delivery-redeliveries', ...m014 },
  { name: '015-change-feed', ...m015 },
  { name: '016-console', ...m016 },
];
