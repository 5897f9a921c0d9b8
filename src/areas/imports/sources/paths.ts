import { posix } from 'node:path';
import { schemeOf } from '../../../editor/index.js';

/**
 * Paths inside an import. References in pages are URLs relative to the page's file (`../Guide/Setup.md`,
 * `Roadmap%203f2a….md#goals`, `./img/a%20b.png`); these helpers turn one into the path of a file of the upload.
 */

/** The folder of a path (`''` at the top). */
export function folderOf(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}

/** The last part of a path, without its extension. */
export function stemOf(path: string): string {
  const base = posix.basename(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export function extensionOf(path: string): string {
  const base = posix.basename(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** Percent-decoding that keeps the input when it is not valid (a literal `%` in a file name). */
export function decodePath(ref: string): string {
  try {
    return decodeURIComponent(ref);
  } catch {
    return ref;
  }
}

/**
 * The upload path `ref` names when written in the file at `fromPath`, or null when it is not a relative reference
 * (a scheme, a protocol-relative or absolute URL, a bare `#fragment`) or climbs out of the upload. The query and
 * fragment are dropped; the path is percent-decoded (Notion encodes spaces and more).
 */
export function relativeTarget(fromPath: string, ref: string): string | null {
  const trimmed = ref.trim();
  if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith('/') || schemeOf(trimmed) !== null) return null;
  const bare = trimmed.replace(/^<|>$/g, '').split(/[?#]/)[0];
  if (!bare) return null;
  const joined = posix.normalize(posix.join(folderOf(fromPath), decodePath(bare)));
  if (joined === '.' || joined.startsWith('../') || joined === '..' || posix.isAbsolute(joined)) return null;
  return joined;
}

/** The `#fragment` of a reference, with its `#`, or `''`. */
export function fragmentOf(ref: string): string {
  const at = ref.indexOf('#');
  return at >= 0 ? ref.slice(at) : '';
}
