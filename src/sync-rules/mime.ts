import { isTextType } from './content.js';

/** MIME types by file extension for the connector: the common ones of notes, code, documents and media. */
const BY_EXTENSION: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  toml: 'text/x-toml',
  ini: 'text/plain',
  json: 'application/json',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/vnd.microsoft.icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Whether bytes can travel as JSON text: valid UTF-8 without NUL (the service refuses NUL in any JSON string). */
function isPlainUtf8(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The MIME type a file is sent with: from its extension when known (a text type only when the bytes are UTF-8
 * without NUL, else `application/octet-stream`), otherwise from its bytes: `text/plain` or
 * `application/octet-stream`.
 */
export function contentTypeOf(name: string, bytes: Uint8Array): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const known = dot > 0 ? BY_EXTENSION[base.slice(dot + 1).toLowerCase()] : undefined;
  const text = isPlainUtf8(bytes);
  if (known && (!isTextType(known) || text)) return known;
  return text ? 'text/plain' : 'application/octet-stream';
}
