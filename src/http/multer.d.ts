// The part of multer 2.x's API the service uses (text fields of multipart/form-data, no files).
// multer ships no types, and @types/multer would pull a second copy of the express types.
declare module 'multer' {
  import type { RequestHandler } from 'express';
  interface Limits {
    fieldNameSize?: number;
    fieldSize?: number;
    fields?: number;
    files?: number;
    parts?: number;
    headerPairs?: number;
    fieldNestingDepth?: number;
  }
  interface Multer {
    none(): RequestHandler;
  }
  function multer(options?: { limits?: Limits }): Multer;
  namespace multer {
    class MulterError extends Error {
      code: string;
      field?: string;
    }
  }
  export = multer;
}
