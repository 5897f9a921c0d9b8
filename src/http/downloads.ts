import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentRange, type RangeRequest } from '../blobs/byte-range.js';
import type { BlobRange } from '../blobs/index.js';
import { AppError } from '../errors.js';

/** The Range and If-Range headers of a download request, for the service to check against the file's size. */
export function rangeRequestOf(req: FastifyRequest): RangeRequest {
  const { range, 'if-range': ifRange } = req.headers;
  return { range: typeof range === 'string' ? range : undefined, ifRange: typeof ifRange === 'string' ? ifRange : undefined };
}

/**
 * Sends a file's bytes: 200 with all of them, or 206 with `range` and its Content-Range. Either way Accept-Ranges says
 * that a client may resume or seek with a Range request. `headers` carries the file's own (type, name, length, ETag).
 */
export function sendFile(reply: FastifyReply, file: { headers: Record<string, string | number>; size: number; stream: Readable; range?: BlobRange }) {
  reply.headers(file.headers).header('accept-ranges', 'bytes');
  let body = file.stream;
  if (reply.request.method === 'HEAD') {
    // Fastify would read a HEAD answer's stream to its end and drop it (a whole zip fetched from S3 for nothing): the
    // store's stream is closed unread, and an empty one keeps the Content-Length set here.
    file.stream.destroy();
    body = Readable.from([]);
  }
  if (!file.range) return reply.send(body);
  return reply
    .status(206)
    .header('content-range', contentRange(file.range, file.size))
    .header('content-length', file.range.end - file.range.start + 1)
    .send(body);
}

/** Runs a download; a 416 answer carries `Content-Range: bytes *\/<size>` besides the error body, as RFC 9110 asks. */
export async function withRangeErrors<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && err.code === 'RANGE_NOT_SATISFIABLE')
      reply.header('content-range', `bytes */${err.details.size}`).header('accept-ranges', 'bytes');
    throw err;
  }
}
