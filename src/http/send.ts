// Sending a prebuilt body (encoded once) whose status and headers the handler has already set.
// express's res.send looks up the Content-Type, the ETag setting and header, Transfer-Encoding,
// and the request's freshness on every call; for these reads all but the freshness are known,
// so the body goes out with its length directly. A conditional request (If-None-Match or
// If-Modified-Since) still goes through res.send, which answers 304 where it applies, exactly as
// before; without either, res.send could never answer 304. HEAD: Node sends no body for a HEAD
// response (the Content-Length is kept, as res.send keeps it).
// An EncodedBody of 1 KB or more goes compressed to a client that accepts br or gzip
// (src/report/encoded-body.ts), with Vary: Accept-Encoding whichever form it gets, so no cache hands one
// client's form to another.
import type { Request, Response } from 'express';
import Negotiator from 'negotiator';
import { EncodedBody, type Coding } from '../report/encoded-body.ts';

const AVAILABLE = ['br', 'gzip', 'identity'] as const;
const PREFERRED = { preferred: ['br', 'gzip'] } as const;

/**
 * The coding to send, by the request's Accept-Encoding (RFC 9110 §12.5.3, negotiator): the
 * client's preference, and among codings it likes equally br, then gzip (browsers list gzip
 * first, and express's acceptsEncodings would break the tie by their order); none when the
 * header is absent or accepts neither. Without the header nothing is parsed.
 */
export function chooseCoding(req: Pick<Request, 'headers'>): Coding | undefined {
  if (!req.headers['accept-encoding']) return undefined;
  const chosen = new Negotiator(req).encoding(AVAILABLE, PREFERRED);
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

export function sendPrebuilt(req: Request, res: Response, prebuilt: Buffer | EncodedBody): void {
  let body: Buffer;
  if (prebuilt instanceof EncodedBody) {
    body = prebuilt.identity;
    if (prebuilt.compressible) {
      res.vary('Accept-Encoding');
      const coding = chooseCoding(req);
      if (coding) {
        res.setHeader('Content-Encoding', coding);
        body = prebuilt.coded(coding);
      }
    }
  } else {
    body = prebuilt;
  }
  if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) {
    res.send(body);
    return;
  }
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
