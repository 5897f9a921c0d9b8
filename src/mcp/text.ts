import type { Readable } from 'node:stream';
import { validation } from '../errors.js';

/** Text of a stream's bytes `[offset, offset + maxBytes)`, cut back to a whole UTF-8 character; stops reading past it. */
export async function readTextSlice(
  stream: Readable,
  offset: number,
  maxBytes: number,
): Promise<{ text: string; bytesRead: number; nextOffset: number | null }> {
  const want = offset + maxBytes + 4; // a few bytes more tell whether the slice ends the file
  const chunks: Buffer[] = [];
  let have = 0;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      chunks.push(buf);
      have += buf.length;
      if (have >= want) break;
    }
  } finally {
    stream.destroy();
  }
  const all = Buffer.concat(chunks, have);
  const start = Math.min(offset, all.length);
  if (start < all.length && (all[start] & 0xc0) === 0x80) throw validation('offset', 'not_char_boundary', 'offset falls inside a UTF-8 character');
  let end = Math.min(start + maxBytes, all.length);
  if (end < all.length) while (end > start && (all[end] & 0xc0) === 0x80) end--;
  const slice = all.subarray(start, end);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(slice);
  } catch {
    throw validation('attachmentId', 'not_text', 'The attachment is not UTF-8 text; download it over REST instead');
  }
  if (text.includes('\u0000')) throw validation('attachmentId', 'not_text', 'The attachment is binary, not text; download it over REST instead');
  return { text, bytesRead: slice.length, nextOffset: end < all.length ? end : null };
}
