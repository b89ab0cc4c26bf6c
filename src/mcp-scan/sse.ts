/**
 * text/event-stream reading through eventsource-parser (WHATWG field rules). The probe reads
 * a stream only until the event it waits for, so `sseWatcher` feeds the parser just the bytes
 * that arrived since its last call instead of re-parsing the whole buffer on every chunk.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent { event: string; data: string; id: string | null }

function toEvent(m: EventSourceMessage): SseEvent {
  return { event: m.event ?? 'message', data: m.data, id: m.id ?? null };
}

/** Complete events in `text`; a trailing event without its blank line is left out. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  createParser({ onEvent: (m) => events.push(toEvent(m)) }).feed(text);
  return events;
}

/**
 * A stop condition for a growing body: true once an event matching `wanted` has arrived.
 * Each call parses only the new bytes (UTF-8 split across chunks is decoded correctly).
 */
export function sseWatcher(wanted: (e: SseEvent) => boolean): (bodySoFar: Buffer) => boolean {
  let offset = 0;
  let found = false;
  const decoder = new TextDecoder();
  const parser = createParser({ onEvent: (m) => { if (!found && wanted(toEvent(m))) found = true; } });
  return (bodySoFar) => {
    if (found) return true;
    parser.feed(decoder.decode(bodySoFar.subarray(offset), { stream: true }));
    offset = bodySoFar.length;
    return found;
  };
}
