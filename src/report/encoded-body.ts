// A prebuilt response body and its compressed forms, each made once on first demand; which one a
// request gets is src/http/send.ts's business.
//
// A report page is about 240 KB of HTML (the evidence tables), which brotli brings to 15 KB.
// Browsers always ask for br or gzip; compressing per request would cost about 2 ms of CPU per
// view, while a cached page (src/report/read-caches.ts) is sent many times, so each coding is
// made once and kept with the page. Quality 6 brotli and level 6 gzip: within 1 % of quality 9
// for this HTML at under a hundredth of its CPU (bench/results.md, notes).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Coding = 'br' | 'gzip';

/** Smaller bodies go as they are: a compressed frame would save less than its own overhead. */
export const MIN_COMPRESSED_BYTES = 1024;

export class EncodedBody {
  readonly identity: Buffer;
  #br: Buffer | undefined;
  #gzip: Buffer | undefined;

  constructor(body: Buffer | string) {
    this.identity = typeof body === 'string' ? Buffer.from(body) : body;
  }

  get compressible(): boolean {
    return this.identity.length >= MIN_COMPRESSED_BYTES;
  }

  /** The body in `coding`, compressed the first time it is asked for. */
  coded(coding: Coding): Buffer {
    if (coding === 'br') {
      return (this.#br ??= brotliCompressSync(this.identity, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: this.identity.length },
      }));
    }
    return (this.#gzip ??= gzipSync(this.identity, { level: 6 }));
  }
}
