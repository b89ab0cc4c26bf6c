/** Every path answers a bot-challenge page, as a CDN in "under attack" mode does. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function waf(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(403, { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', 'cache-control': 'no-store' });
  res.end('<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget">Checking your browser</div></body></html>');
}
