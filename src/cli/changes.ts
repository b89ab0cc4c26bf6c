/**
 * `agent-readiness changes [--since <cursor>]`: the key's watches' changes since a cursor
 * (listChanges), every page until the feed is caught up, then the cursor to pass next time.
 * Text: one line per event and `next cursor: <cursor>` last; jsonl: one event per line and a
 * last line `{"nextCursor": …}`. Exit 0 when read, 2 when the API refused or was unreachable
 * (a cursor past the 30 days kept says to start again without --since), 1 on usage errors.
 */
import { ajvSummary, describeError, openConnection } from './api.ts';
import type { components } from '../../generated/api-types.ts';
import { validateChangeFeed, validateError } from '../../generated/validators.js';
import type { ChangesOptions } from './changes-args.ts';
import type { Env } from './proxy-env.ts';
import { cleanText } from './sanitize.ts';

type ChangeFeed = components['schemas']['ChangeFeed'];
type Event = ChangeFeed['events'][number];

export interface ChangesIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Env;
  version: string;
}

const EXIT_COULD_NOT = 2;
/** A feed far behind is read in pages; this many at most per run, so a run always ends. */
const MAX_PAGES = 1000;

const REFUSALS: Record<number, string> = {
  400: 'the API did not accept the cursor',
  401: 'the API key was refused (unknown or revoked); check --key or AGENT_READINESS_KEY',
  410: 'the cursor is older than the events the API keeps (30 days); run again without --since',
};

/** One line a person reads: the domain, what moved, and the diff's address. */
export function eventLine(e: Event): string {
  const side = (s: Event['from']) => `${s.headline}${s.score === null ? '' : ` (${s.score})`}`;
  const what = e.changes.map((c) => c.text).join(' ');
  return cleanText(`${e.domain}: ${side(e.from)} -> ${side(e.to)}. ${what} ${e.diffUrl}`);
}

export async function runChanges(o: ChangesOptions, io: ChangesIo): Promise<number> {
  const { client, dispatcher, unreachable } = openConnection(o.api, io.env, io.version);
  const say = (line: string) => io.stdout.write(`${line}\n`);
  try {
    let since = o.since;
    for (let page = 0; page < MAX_PAGES; page++) {
      let r;
      try {
        r = await client.GET('/changes', {
          params: { query: { ...(since !== undefined ? { since } : {}), limit: 500 } },
          headers: { authorization: `Bearer ${o.key}` }, signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        io.stderr.write(`agent-readiness: could not read changes: ${unreachable(err)}\n`);
        return EXIT_COULD_NOT;
      }
      const status = r.response.status;
      if (status !== 200) {
        const said = validateError(r.error) ? describeError(r.error) : `HTTP ${status} without an error body`;
        io.stderr.write(`agent-readiness: ${REFUSALS[status] ?? 'the API refused'} (HTTP ${status}): ${cleanText(said)}\n`);
        return EXIT_COULD_NOT;
      }
      if (!validateChangeFeed(r.data)) {
        io.stderr.write(`agent-readiness: the API answered with changes this CLI does not understand (${ajvSummary(validateChangeFeed.errors)})\n`);
        return EXIT_COULD_NOT;
      }
      const feed: ChangeFeed = r.data;
      for (const e of feed.events) say(o.format === 'jsonl' ? JSON.stringify(e) : eventLine(e));
      since = feed.nextCursor;
      if (!feed.hasMore) break;
    }
    if (o.format === 'jsonl') say(JSON.stringify({ nextCursor: since }));
    else say(`next cursor: ${since}`);
    return 0;
  } finally {
    await dispatcher.close();
  }
}
