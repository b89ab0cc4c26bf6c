// Sending a prebuilt body (a Buffer encoded once) whose status and headers the handler has
// already set. express's res.send looks up the Content-Type, the ETag setting and header,
// Transfer-Encoding, and the request's freshness on every call; for these reads all but the
// freshness are known, so the body goes out with its length directly. A conditional request
// (If-None-Match or If-Modified-Since) still goes through res.send, which answers 304 where
// it applies, exactly as before; without either, res.send could never answer 304. HEAD:
// Node sends no body for a HEAD response (the Content-Length is kept, as res.send keeps it).
import type { Request, Response } from 'express';

export function sendPrebuilt(req: Request, res: Response, body: Buffer): void {
  if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) {
    res.send(body);
    return;
  }
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
