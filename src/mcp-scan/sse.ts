/** Minimal text/event-stream parsing (WHATWG HTML "server-sent events" field rules). */

export interface SseEvent { event: string; data: string; id: string | null }

/** Complete events in `text`; a trailing event without its blank line is left out. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
  blocks.pop(); // incomplete (or empty) tail
  for (const block of blocks) {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length > 0 || event !== 'message') events.push({ event, data: data.join('\n'), id });
  }
  return events;
}
