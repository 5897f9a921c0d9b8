import { createHash } from 'node:crypto';
import type { SyncContentType } from '../../db/tables/local-sync.js';

const HEX64 = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A SHA-256 hex string, lower-cased; null when it is not one. */
export function parseHash(value: string): string | null {
  return HEX64.test(value) ? value.toLowerCase() : null;
}

export type Decoded = { ok: true; bytes: Buffer } | { ok: false; reason: 'invalid_base64' | 'too_large'; message: string };

/** The bytes a content string stands for: UTF-8 of the text, or the Base64-decoded bytes of binary content. */
export function decodeContent(content: string, contentType: SyncContentType, maxBytes: number): Decoded {
  let bytes: Buffer;
  if (contentType === 'binary') {
    if (!BASE64.test(content)) return { ok: false, reason: 'invalid_base64', message: 'binary content must be standard Base64 (with padding)' };
    bytes = Buffer.from(content, 'base64');
  } else bytes = Buffer.from(content, 'utf8');
  if (bytes.length > maxBytes) return { ok: false, reason: 'too_large', message: `content is larger than ${maxBytes} bytes` };
  return { ok: true, bytes };
}

/** The content string of stored bytes (text, or Base64 for binary). */
export function encodeContent(bytes: Uint8Array, contentType: SyncContentType): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  return contentType === 'binary' ? buf.toString('base64') : buf.toString('utf8');
}
