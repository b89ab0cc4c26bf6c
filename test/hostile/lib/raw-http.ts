// A raw HTTP client for hostile requests: any method, an unnormalised path, any header
// values and body bytes, optional chunked transfer. It returns the shape `conforms` reads
// (status, headers, text, req.method/path), so contract checks apply to every answer.
import http from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send the body in pieces with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
  /** Stop reading after the first chunk of a streaming response (SSE). */
  firstChunkOnly?: boolean;
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  req: { method: string; path: string };
}

export function rawRequest(base: string, r: RawRequest): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(r.headers ?? {}) };
    const body = r.body === undefined ? undefined : Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body);
    if (body && !r.chunked && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['Content-Length'] = String(body.length);
    // Node chunks a streamed body by default only for methods that usually carry one; a DELETE
    // or GET would go out unframed (and Connection: close), which is not the request meant here.
    if (body && r.chunked) headers['Transfer-Encoding'] = 'chunked';
    const req = http.request({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent: false });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${r.timeoutMs ?? 10000} ms: ${r.method} ${r.path}`)), r.timeoutMs ?? 10000);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      const done = () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), req: { method: r.method, path: r.path } });
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (r.firstChunkOnly) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', () => done());
    });
    if (body && r.chunked) {
      for (let i = 0; i < body.length; i += 4096) req.write(body.subarray(i, i + 4096));
      req.end();
    } else req.end(body);
  });
}
