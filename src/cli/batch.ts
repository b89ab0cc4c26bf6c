/**
 * `agent-readiness batch <file>`: submit a file of domains as one batch with a partner key, wait
 * for it (a progress bar on a terminal, plain lines elsewhere), then write one row per domain.
 * Exit 0 when every entry was scanned; 2 when any could not be tested (a rejected line, a failed
 * or cancelled item, the API refusing or unreachable); usage errors (1) never reach here.
 * stdout carries only the results (or, with --no-wait, the batch); the rest goes to stderr.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import { connectBatchApi, type Batch, type BatchApi } from './batch-api.ts';
import { EXIT_BATCH_USAGE, type BatchOptions } from './batch-args.ts';
import { progressLine, rowWriter } from './batch-output.ts';
import { startProgress } from './progress.ts';
import type { Env } from './proxy-env.ts';
import { cleanText } from './sanitize.ts';
import { colourEnabled, makeStyle } from './style.ts';

export interface BatchIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  env: Env;
  version: string;
}

const EXIT_SCANNED = 0;
const EXIT_COULD_NOT_TEST = 2;
/** How often the batch is asked for; the service's answer is a few counts, so this is cheap. */
const POLL_MS = 1000;
/** Without a terminal, a line at most this often (plus one per tenth of the batch), so CI logs stay short. */
const PLAIN_LINE_MS = 15_000;
/** Consecutive failed polls (a restart, a blip) tolerated before giving up; the batch itself goes on. */
const POLL_RETRIES = 10;

async function readInput(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (file !== '-') return fs.promises.readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function runBatch(opts: BatchOptions, io: BatchIo): Promise<number> {
  const say = (msg: string) => io.stderr.write(`agent-readiness: ${msg}\n`);
  let text: string;
  try {
    text = await readInput(opts.file, io.stdin);
  } catch (err) {
    say(`cannot read ${opts.file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    return EXIT_BATCH_USAGE;
  }
  // Opened before anything is spent: a results file that cannot be written is the caller's to fix.
  let fd: number | undefined;
  if (opts.out !== undefined) {
    try {
      fd = fs.openSync(opts.out, 'w');
    } catch (err) {
      say(`cannot write ${opts.out} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      return EXIT_BATCH_USAGE;
    }
  }
  const api = connectBatchApi(opts.api, opts.key, io.env, io.version);
  try {
    return await submitAndWait(opts, text, api, io, say, fd);
  } finally {
    await api.close();
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The capability links (services from before they existed send none: nothing is printed for them). */
function pageLines(links: { summaryPage?: string; resultsPage?: string }): string {
  return links.summaryPage && links.resultsPage ? `summary page: ${links.summaryPage}\nresults page: ${links.resultsPage}\n` : '';
}

async function submitAndWait(opts: BatchOptions, text: string, api: BatchApi, io: BatchIo, say: (m: string) => void, fd: number | undefined): Promise<number> {
  const contentType = /\.csv$/i.test(opts.file) ? 'text/csv' : 'text/plain';
  const created = await api.create(text, contentType, { ...(opts.profile ? { profile: opts.profile } : {}), ...(opts.label ? { label: opts.label } : {}) });
  if (!created.ok) {
    say(`could not test: ${cleanText(created.message)}`);
    return EXIT_COULD_NOT_TEST;
  }
  const a = created.accepted;
  const folded = a.duplicates ? `, ${a.duplicates} duplicate${a.duplicates === 1 ? '' : 's'} folded` : '';
  say(`batch ${a.batchId}: ${a.total} domain${a.total === 1 ? '' : 's'} queued${folded}; it runs on the service whether or not this waits: ${a.links.self}`);
  for (const r of a.rejected) say(`line ${r.line} not scanned: "${cleanText(r.input)}": ${cleanText(r.error)}`);
  const rejected = a.rejected.length > 0;
  if (!opts.wait) {
    io.stdout.write(`batch ${a.batchId}\nstatus: ${a.links.self}\nresults: ${a.links.results}\nsummary: ${a.links.summary}\n${pageLines(a.links)}`);
    return rejected ? EXIT_COULD_NOT_TEST : EXIT_SCANNED;
  }

  const finished = await waitForBatch(a.batchId, api, io, say);
  if (typeof finished === 'string') {
    say(`could not test: ${cleanText(finished)} (the batch goes on: ${a.links.self})`);
    return EXIT_COULD_NOT_TEST;
  }
  const written = await writeResults(a.batchId, opts, api, io, fd);
  if (typeof written === 'string') {
    say(`could not test: ${cleanText(written)}`);
    return EXIT_COULD_NOT_TEST;
  }
  const notScanned = written.rows - written.scanned;
  say(`${written.scanned} of ${written.rows} scanned, ${notScanned} could not be tested${rejected ? `, ${a.rejected.length} line${a.rejected.length === 1 ? '' : 's'} rejected` : ''}${opts.out ? `; results in ${opts.out}` : ''}; summary: ${a.links.summaryPage ?? a.links.summary}`);
  if (a.links.summaryPage) say(`these links open in any browser without the key (anyone holding them can read the batch; rotate them with POST ${a.links.self}/links):\n  summary: ${a.links.summaryPage}\n  results: ${a.links.resultsPage}`);
  return notScanned === 0 && !rejected && finished.status === 'done' ? EXIT_SCANNED : EXIT_COULD_NOT_TEST;
}

/** Polls until the batch is done or cancelled; a string says why it could not follow it. */
async function waitForBatch(batchId: string, api: BatchApi, io: BatchIo, say: (m: string) => void): Promise<Batch | string> {
  const progress = startProgress(io.stderr, true);
  const tty = Boolean(io.stderr.isTTY);
  let lastLine = 0;
  let lastTenth = -1;
  let failures = 0;
  try {
    for (;;) {
      const got = await api.get(batchId);
      if (!got.ok) {
        // A 4xx is an answer (the key revoked, the batch gone); only silence and 5xx are retried.
        if ((got.status !== undefined && got.status < 500) || ++failures > POLL_RETRIES) return got.message;
      } else {
        failures = 0;
        const b = got.batch;
        const line = progressLine(b);
        const tenth = Math.floor(((b.done + b.failed + b.cancelled) / b.total) * 10);
        if (tty) progress.phase(line);
        else if (b.status === 'done' || b.status === 'cancelled' || tenth > lastTenth || Date.now() - lastLine >= PLAIN_LINE_MS) {
          say(`batch ${line}`);
          lastLine = Date.now();
          lastTenth = tenth;
        }
        if (b.status === 'done' || b.status === 'cancelled') return b;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    progress.stop();
  }
}

/** Streams the rows to --out (or stdout), counting them; a string says why it could not. */
async function writeResults(batchId: string, opts: BatchOptions, api: BatchApi, io: BatchIo, fd: number | undefined): Promise<{ rows: number; scanned: number } | string> {
  const file = fd === undefined ? undefined : fs.createWriteStream('', { fd, autoClose: false });
  let failed: Error | undefined;
  file?.on('error', (err) => (failed = err));
  const out: NodeJS.WritableStream = file ?? io.stdout;
  const writer = rowWriter(opts.format, makeStyle(!opts.out && colourEnabled(io.stdout, io.env)));
  const put = async (s: string) => {
    if (failed) throw failed;
    if (s && !out.write(s)) await once(out, 'drain');
  };
  let rows = 0;
  let scanned = 0;
  try {
    await put(writer.header());
    for await (const row of api.results(batchId)) {
      rows += 1;
      if (row.state === 'done') scanned += 1;
      await put(writer.row(row));
    }
  } catch (err) {
    return `the results could not be ${failed ? `written to ${opts.out}` : 'read'}: ${(err as Error).message}`;
  } finally {
    if (file) await new Promise<void>((resolve) => file.end(resolve));
  }
  if (failed) return `the results could not be written to ${opts.out}: ${failed.message}`;
  return { rows, scanned };
}
