// Requests that Node's HTTP parser refuses before any route sees them (malformed framing,
// bytes after a request that said Connection: close, oversized headers, a request that took too
// long) get an answer in the spec's Error shape too. Node's default writes a bare
// "400 Bad Request" with no body or content type (found by the fuzz suite: a DELETE whose body
// had no framing). Written with Connection: close, as the connection cannot be trusted after.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '../errors.ts';

const answers: Record<string, { status: number; reason: string; body: ErrorBody }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431, reason: 'Request Header Fields Too Large',
    body: { error: 'The request headers are too large.', hint: 'Send fewer or shorter headers (at most 16 KiB in all).' },
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408, reason: 'Request Timeout',
    body: { error: 'The request was not received in time.', hint: 'Send the whole request promptly.' },
  },
};
const malformed = {
  status: 400, reason: 'Bad Request',
  body: { error: 'The request is not well-formed HTTP/1.1.', hint: 'Frame a body with Content-Length or Transfer-Encoding: chunked, and send nothing after a request that says Connection: close.' },
};

export function clientErrorResponse(code: string | undefined): string {
  const a = (code && answers[code]) || malformed;
  const body = JSON.stringify(a.body);
  return `HTTP/1.1 ${a.status} ${a.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`;
}

export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A peer that went away cannot be answered.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err.code));
  });
}
