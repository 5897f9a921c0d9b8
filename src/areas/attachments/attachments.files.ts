import { create as contentDisposition } from 'content-disposition';
import { AppError, validation } from '../../errors.js';

/**
 * File names, Base64 and download headers: the rules that keep user-given names and types from doing harm.
 */

/** Control characters, and the bidirectional overrides that can disguise an extension ("txt.exe" shown as "exe.txt"). */
const UNSAFE_CHARS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The display name kept for an upload: the last segment of the given name (so `../../etc/passwd` and
 * `C:\Users\me\a.txt` keep `passwd` and `a.txt`), NFC-normalised, without control characters, at most 255 characters.
 * It is only ever shown and put in a Content-Disposition header, never used as a path.
 */
export function cleanFilename(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const name = last.normalize('NFC').replace(UNSAFE_CHARS, '').trim().slice(0, 255);
  if (!name || name === '.' || name === '..') throw validation('filename', 'empty', 'filename must name a file (not empty, not only a path)');
  return name;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded size of well-formed Base64, without decoding it. */
export function base64Size(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/**
 * Strict standard Base64 (RFC 4648 §4): the alphabet, length a multiple of 4, `=` padding only at the end, and the
 * unused bits of the last quantum zero (so every byte string has exactly one accepted spelling). No whitespace, no
 * URL-safe alphabet, no data: prefix. 422 on anything else; 422 past `maxBytes` before decoding.
 */
export function decodeBase64Strict(data: string, maxBytes: number): Buffer {
  if (data.length % 4 !== 0 || !BASE64.test(data))
    throw validation('data', 'invalid_base64', 'data must be standard Base64 with padding (RFC 4648), without whitespace');
  const tail = data.slice(-4);
  if (tail && Buffer.from(tail, 'base64').toString('base64') !== tail)
    throw validation('data', 'invalid_base64', 'data is not canonical Base64: the unused bits of its last group must be zero');
  if (base64Size(data) > maxBytes) throw tooLarge(maxBytes);
  return Buffer.from(data, 'base64');
}

/** 422 for a file past the limit, which `details.limit` gives in bytes (so a client can say it in its own words). */
export const tooLarge = (maxBytes: number) =>
  new AppError('VALIDATION_ERROR', `The file is larger than the limit of ${maxBytes} bytes (MAX_ATTACHMENT_BYTES)`, {
    field: 'data',
    reason: 'too_large',
    limit: maxBytes,
  });

/**
 * Raster images, the only files shown in the browser (in a page's <img>, or in a tab of their own): no browser runs
 * them. SVG is not one of them (it carries script), nor is any other type.
 */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/** What every other file is served as: bytes to save, which no `<script>`, `<link>`, worker or tab will run or style with. */
const DOWNLOAD_TYPE = 'application/octet-stream';

export function essenceOf(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

export function dispositionType(contentType: string): 'inline' | 'attachment' {
  return INLINE_IMAGES.has(essenceOf(contentType)) ? 'inline' : 'attachment';
}

/**
 * The type a file is served with: a safe raster image keeps its own; everything else is `application/octet-stream`.
 * A script, style sheet, HTML or SVG document uploaded to a page is served from this origin, whose CSP allows its own
 * scripts and styles: with its own type (even with nosniff) a `<script src>` or `<link rel=stylesheet>` there would
 * run it. The record keeps the uploaded type for clients to show.
 */
export function servedType(contentType: string): string {
  const essence = essenceOf(contentType);
  return INLINE_IMAGES.has(essence) ? essence : DOWNLOAD_TYPE;
}

/** `inline|attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266 and 8187). */
export function contentDispositionHeader(filename: string, contentType: string): string {
  return contentDisposition(filename, { type: dispositionType(contentType) });
}

/** Served with every file's bytes: nothing in them runs, should a browser render them anyway. */
export const DOWNLOAD_CSP = "default-src 'none'; sandbox";

/**
 * The headers of a file's bytes, wherever they are downloaded from (signed in, or through a public share): a safe
 * image inline, anything else a download of plain bytes; never sniffed, and sandboxed should a browser render it.
 */
export function downloadHeaders(
  attachment: { filename: string; contentType: string; size: number; sha256: string },
  cacheControl: string,
): Record<string, string | number> {
  return {
    'content-type': servedType(attachment.contentType),
    'content-length': attachment.size,
    'content-disposition': contentDispositionHeader(attachment.filename, attachment.contentType),
    'x-content-type-options': 'nosniff',
    'content-security-policy': DOWNLOAD_CSP,
    'cache-control': cacheControl,
    etag: `"${attachment.sha256}"`,
  };
}
