// The operator's partner-key command, on the database DATABASE_URL names (migrated first):
//   npm run keys -- create --name <partner> --daily-scans <n> [--json]
//   npm run keys -- list [--json]
//   npm run keys -- revoke <keyId>
// The key is printed once, at creation; only its hash is stored. Exit 0 done, 1 usage error
// or nothing to revoke, 2 the database could not be reached.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { ApiKeys } from '../src/keys/service.ts';
import { AppError } from '../src/errors.ts';
import { createDb, migrate } from '../src/storage/db.ts';

const USAGE = `Usage:
  npm run keys -- create --name <partner> --daily-scans <n> [--json]
  npm run keys -- list [--json]
  npm run keys -- revoke <keyId>`;

function usage(problem: string): never {
  process.stderr.write(`${problem}\n\n${USAGE}\n`);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { name: { type: 'string' }, 'daily-scans': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
} catch (err) {
  usage((err as Error).message);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const [command, ...rest] = positionals;
if (!command) usage('A command is required.');

const config = loadConfig();
const db = createDb(config.databaseUrl);
const keys = new ApiKeys({ db, now: () => new Date() });
let code = 0;
try {
  await migrate(db);
  switch (command) {
    case 'create': {
      const dailyScans = Number(values['daily-scans']);
      if (values.name === undefined || values['daily-scans'] === undefined || !/^[0-9]+$/.test(values['daily-scans'])) usage('create needs --name <partner> and --daily-scans <whole number>.');
      const created = await keys.create(values.name, dailyScans);
      if (values.json) process.stdout.write(`${JSON.stringify(created)}\n`);
      else process.stdout.write(`keyId: ${created.keyId}\nkey:   ${created.key}\n\nThe key is shown this once and stored only as a hash: hand it to the partner now.\n`);
      break;
    }
    case 'list': {
      const all = await keys.list();
      if (values.json) process.stdout.write(`${JSON.stringify(all)}\n`);
      else if (all.length === 0) process.stdout.write('No keys.\n');
      else {
        for (const k of all) process.stdout.write(`${k.keyId}  ${String(k.dailyScans).padStart(8)}/day  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'live'}  ${k.createdAt}  ${k.name}\n`);
      }
      break;
    }
    case 'revoke': {
      if (rest.length !== 1) usage('revoke needs one keyId.');
      if (await keys.revoke(rest[0]!)) process.stdout.write(`Revoked ${rest[0]}.\n`);
      else {
        process.stderr.write(`No live key has the id ${rest[0]}.\n`);
        code = 1;
      }
      break;
    }
    default:
      usage(`Unknown command: ${command}.`);
  }
} catch (err) {
  if (err instanceof AppError) {
    process.stderr.write(`${err.body.error}\n`);
    code = 1;
  } else {
    process.stderr.write(`The database could not be reached: ${(err as Error).message}\n`);
    code = 2;
  }
} finally {
  await db.destroy();
}
process.exitCode = code;
