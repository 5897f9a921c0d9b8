import { createHash } from 'node:crypto';

/**
 * How file content travels in local sync, shared by the service and the connector. `contentType` is the file's
 * MIME type (`text/markdown`, `image/png`), or one of the words `text` / `binary`. Text types (`text/*`, JSON, XML
 * and the words `text`) carry the UTF-8 text itself; every other type carries standard Base64 (with padding).
 * `contentHash` is the SHA-256 hex of the bytes either way.
 */

export const MAX_CONTENT_TYPE_LENGTH = 255;

/** The rule for text types as data, so the database query that builds deltas applies the very same rule. */
export const TEXT_TYPES = {
  exact: ['text', 'application/json', 'application/xml'],
  prefixes: ['text/'],
  suffixes: ['+json', '+xml'],
} as const;

const TOKEN = "[a-z0-9!#$&^_.+'*`|~-]+";
const MIME = new RegExp(`^(${TOKEN})/(${TOKEN})(\\s*;.*)?$`, 'i');

/**
 * A content type as stored and answered: `text`, `binary`, or the MIME type's essence (`type/subtype`, lower case,
 * parameters such as `; charset=utf-8` dropped: text always travels as UTF-8). Null when it is neither.
 */
export function parseContentType(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (v === 'text' || v === 'binary') return v;
  if (v.length > MAX_CONTENT_TYPE_LENGTH) return null;
  const m = MIME.exec(v);
  return m ? `${m[1]}/${m[2]}` : null;
}

/** Whether content of this type travels as UTF-8 text (else Base64). */
export function isTextType(contentType: string): boolean {
  const t = contentType.toLowerCase();
  return (
    (TEXT_TYPES.exact as readonly string[]).includes(t) || TEXT_TYPES.prefixes.some((p) => t.startsWith(p)) || TEXT_TYPES.suffixes.some((s) => t.endsWith(s))
  );
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A SHA-256 hex string, lower-cased; null when it is not one. */
export function parseHash(value: string): string | null {
  return HEX64.test(value) ? value.toLowerCase() : null;
}

export type Decoded = { ok: true; bytes: Buffer } | { ok: false; reason: 'invalid_base64' | 'too_large'; message: string };

/** The bytes a content string stands for: UTF-8 of the text, or the Base64-decoded bytes. */
export function decodeContent(content: string, contentType: string, maxBytes = Number.POSITIVE_INFINITY): Decoded {
  let bytes: Buffer;
  if (isTextType(contentType)) bytes = Buffer.from(content, 'utf8');
  else {
    if (!BASE64.test(content)) return { ok: false, reason: 'invalid_base64', message: `${contentType} content must be standard Base64 (with padding)` };
    bytes = Buffer.from(content, 'base64');
  }
  if (bytes.length > maxBytes) return { ok: false, reason: 'too_large', message: `content is larger than ${maxBytes} bytes` };
  return { ok: true, bytes };
}

/** The content string of bytes (the text, or Base64). */
export function encodeContent(bytes: Uint8Array, contentType: string): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  return isTextType(contentType) ? buf.toString('utf8') : buf.toString('base64');
}
