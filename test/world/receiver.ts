/**
 * A webhook receiver for the test world: a site (`startWorld({ handlers: { [label]: receiver.handler } })`)
 * that answers each path from a script and keeps every request it got, raw body and headers as
 * they arrived, and the network it came through (networkA = through that proxy).
 *
 *   const hooks = webhookReceiver();
 *   hooks.script('/flaky', [{ status: 500 }, { status: 500 }, { status: 200 }]);
 *   ... await hooks.until('/flaky', 3) ...
 *
 * An answer is a status (with optional headers and body), or 'hang': the request is read and
 * never answered (a slow receiver; released by close()). Past the script's end its last
 * answer repeats; a path without a script answers 200.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { ExtraHandler } from './index.ts';
import type { WorldNetwork } from './site.ts';

export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface ReceivedRequest {
  path: string;
  method: string;
  network: WorldNetwork;
  headers: IncomingHttpHeaders;
  /** The body's bytes as received, before any parsing (what a signature is checked against). */
  body: Buffer;
  /** What the script answered. */
  answer: ReceiverAnswer;
}

export interface WebhookReceiver {
  handler: ExtraHandler;
  script(path: string, answers: readonly ReceiverAnswer[]): void;
  received(path?: string): ReceivedRequest[];
  /** Resolves once `path` has received `count` requests (polls; gives up after `timeoutMs`). */
  until(path: string, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Ends the requests held by 'hang'. */
  close(): void;
}

export function webhookReceiver(): WebhookReceiver {
  const scripts = new Map<string, readonly ReceiverAnswer[]>();
  const log: ReceivedRequest[] = [];
  const held = new Set<ServerResponse>();
  const received = (path?: string) => log.filter((r) => path === undefined || r.path === path);

  const handler: ExtraHandler = (req: IncomingMessage, res: ServerResponse, { network }) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const script = scripts.get(path) ?? [{ status: 200 }];
      const answer = script[Math.min(received(path).length, script.length - 1)]!;
      log.push({ path, method: req.method ?? '', network, headers: req.headers, body: Buffer.concat(chunks), answer });
      if (answer === 'hang') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    });
  };

  return {
    handler,
    script: (path, answers) => {
      if (answers.length === 0) throw new Error('a script needs at least one answer');
      scripts.set(path, answers);
    },
    received,
    async until(path, count, timeoutMs = 60_000) {
      const stop = Date.now() + timeoutMs;
      while (received(path).length < count) {
        if (Date.now() > stop) throw new Error(`${path} received ${received(path).length} requests, not ${count}, within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received(path);
    },
    close() {
      for (const res of held) res.destroy();
      held.clear();
    },
  };
}
