// multipart/form-data bodies of text fields, for the operations whose contract declares that
// media type (RFC 8058's one-click unsubscribe: a mail client SHOULD post multipart/form-data
// and MAY post application/x-www-form-urlencoded, so both must end the watch). Parsed by
// multer (busboy underneath) with the operation's limits; a file part is refused, never stored.
// Errors become the spec's Error shape here, so the error renderer sees only AppErrors.
import type { RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../errors.ts';

/** The most fields a form may carry (as urlencoded bodies: body-parser's parameterLimit). */
const MAX_FIELDS = 50;

/** multer's codes for a form beyond the limits; the rest (a nested or missing field name) is a bad form. */
const TOO_LARGE = new Set(['LIMIT_PART_COUNT', 'LIMIT_FIELD_COUNT', 'LIMIT_FIELD_VALUE', 'LIMIT_FIELD_KEY']);

export function multipartFields(limit: number): RequestHandler {
  // fieldSize at the whole body limit: a long value is the validator's 400 (maxLength) or the
  // wire cut-off's 413, as it is for a urlencoded body, never a parser error of its own.
  const parse = multer({ limits: { fields: MAX_FIELDS, parts: MAX_FIELDS, files: 0, fieldSize: limit, fieldNameSize: 100, fieldNestingDepth: 0 } }).none();
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      // The wire cut-off (src/app.ts) may already have answered 413 while the parser drained.
      if (res.headersSent) return;
      next(err === undefined ? undefined : toAppError(err, limit));
    });
  };
}

function toAppError(err: unknown, limit: number): AppError {
  const code = err instanceof multer.MulterError ? err.code : undefined;
  if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
    return new AppError('BAD_REQUEST', { error: 'Invalid request.', hint: 'This form takes text fields only; a file part was sent.' });
  }
  if (code !== undefined && TOO_LARGE.has(code)) {
    return new AppError('PAYLOAD_TOO_LARGE', { error: 'The request body is too large.', hint: `This endpoint accepts at most ${MAX_FIELDS} fields and ${limit} bytes (${code}).` });
  }
  const why = err instanceof Error ? err.message : String(err);
  return new AppError('BAD_REQUEST', { error: 'Invalid request.', hint: `The multipart/form-data body could not be read: ${why}.` });
}
