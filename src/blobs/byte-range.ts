import { AppError } from '../errors.js';
import type { BlobRange } from './blob-store.js';

/** What a download asked for: the `Range` header, and `If-Range` (serve the range only if the bytes are still these). */
export interface RangeRequest {
  range?: string;
  ifRange?: string;
}

/** 416, with the size the client may ask within (sent back as `Content-Range: bytes *\/<size>`). */
export const rangeNotSatisfiable = (size: number, range: string) =>
  new AppError('RANGE_NOT_SATISFIABLE', `The requested range (${range}) lies outside the file's ${size} bytes`, {
    field: 'range',
    reason: 'not_satisfiable',
    size,
  });

const SINGLE = /^bytes=[ \t]*(\d{0,15})-(\d{0,15})[ \t]*$/i;

/**
 * The byte range of a `size`-byte file that a download serves (RFC 9110 §14): `bytes=a-b`, `bytes=a-` or `bytes=-n`,
 * clamped to the file; `undefined` to serve it whole, which is also the answer to what this server does not honour (no
 * Range, another unit, several ranges, a malformed header, or an `If-Range` naming other bytes than `etag`). A single
 * range that starts past the end, or asks for the last 0 bytes, is refused with 416.
 */
export function requestedRange(size: number, request: RangeRequest, etag?: string): BlobRange | undefined {
  const header = request.range?.trim();
  if (!header) return undefined;
  // If-Range carries the validator the client's partial copy came from; dates are not validators here (strong ETags only).
  if (request.ifRange !== undefined && request.ifRange.trim() !== etag) return undefined;
  const match = SINGLE.exec(header);
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) throw rangeNotSatisfiable(size, header);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  // `a-b` with b < a is not a valid range: ignored, like any malformed header.
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) throw rangeNotSatisfiable(size, header);
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** `Content-Range` of a partial answer. */
export const contentRange = (range: BlobRange, size: number) => `bytes ${range.start}-${range.end}/${size}`;
