import picomatch from 'picomatch';

/** Longest relative path accepted, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;
/** The connector's own state folder: never synced. */
export const RESERVED_FIRST_SEGMENT = '.kb-sync';

export type PathReason = 'empty' | 'backslash' | 'control_character' | 'absolute' | 'parent_segment' | 'directory' | 'too_long' | 'reserved';

export type PathCheck = { ok: true; path: string } | { ok: false; reason: PathReason; message: string };

const MESSAGES: Record<PathReason, string> = {
  empty: 'relativePath is empty',
  backslash: 'relativePath must use forward slashes (no backslash)',
  control_character: 'relativePath must not contain NUL or other control characters',
  absolute: 'relativePath must be relative (no leading "/" or drive letter)',
  parent_segment: 'relativePath must not contain ".." segments',
  directory: 'relativePath names a directory (trailing "/"); only files are synced',
  too_long: `relativePath is longer than ${MAX_PATH_BYTES} bytes`,
  reserved: `relativePath is inside the connector's "${RESERVED_FIRST_SEGMENT}" folder`,
};

const fail = (reason: PathReason): PathCheck => ({ ok: false, reason, message: MESSAGES[reason] });

/**
 * Normalises a synced path (NFC, single slashes, no "." segments) and refuses unsafe ones: backslashes, control
 * characters, absolute paths, ".." segments, directories, more than 1,024 bytes, the connector's state folder.
 */
export function normalisePath(raw: string): PathCheck {
  if (raw.length === 0) return fail('empty');
  if (raw.includes('\\')) return fail('backslash');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fail('control_character');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return fail('absolute');
  const nfc = raw.normalize('NFC');
  if (nfc.endsWith('/')) return fail('directory');
  const segments = nfc.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return fail('empty');
  if (segments.includes('..')) return fail('parent_segment');
  if (segments[0] === RESERVED_FIRST_SEGMENT) return fail('reserved');
  const path = segments.join('/');
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return fail('too_long');
  return { ok: true, path };
}

/** Whether a path belongs to a source: matches an include pattern (none → any) and no exclude pattern. */
export type PathFilter = (path: string) => boolean;

const OPTIONS = { dot: true } as const;

export function pathFilter(include: readonly string[], exclude: readonly string[]): PathFilter {
  const inc = include.length ? picomatch([...include], OPTIONS) : () => true;
  const exc = exclude.length ? picomatch([...exclude], OPTIONS) : () => false;
  return (path) => inc(path) && !exc(path);
}

/** The index of the first pattern picomatch cannot compile, with its message; null when all are fine. */
export function invalidPattern(patterns: readonly string[]): { index: number; message: string } | null {
  for (const [index, p] of patterns.entries()) {
    if (p.trim() === '') return { index, message: 'a pattern must not be empty' };
    try {
      picomatch.makeRe(p, { ...OPTIONS, strictBrackets: true });
    } catch (err) {
      return { index, message: err instanceof Error ? err.message : String(err) };
    }
  }
  return null;
}
