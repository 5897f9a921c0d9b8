/**
 * Path rules of local sync, shared by the service (which refuses unsafe paths with 422) and the connector (which
 * skips unsafe local names and ignores unsafe service paths before writing anything). One behaviour on both sides:
 * a path is refused rather than silently rewritten, except for Unicode normalisation to NFC.
 */

/** Longest relative path accepted, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;
/** The connector's own state folder inside a synced directory: never synced. */
export const STATE_DIR = '.kb-sync';

export type PathReason =
  | 'empty'
  | 'backslash'
  | 'control_character'
  | 'absolute'
  | 'empty_segment'
  | 'dot_segment'
  | 'parent_segment'
  | 'directory'
  | 'too_long'
  | 'reserved';

export type PathCheck = { ok: true; path: string } | { ok: false; reason: PathReason; message: string };

const MESSAGES: Record<PathReason, string> = {
  empty: 'relativePath is empty',
  backslash: 'relativePath must use forward slashes (no backslash)',
  control_character: 'relativePath must not contain NUL or other control characters',
  absolute: 'relativePath must be relative (no leading "/" or drive letter)',
  empty_segment: 'relativePath must not contain empty segments ("//")',
  dot_segment: 'relativePath must not contain "." segments',
  parent_segment: 'relativePath must not contain ".." segments',
  directory: 'relativePath names a directory (trailing "/"); only files are synced',
  too_long: `relativePath is longer than ${MAX_PATH_BYTES} bytes`,
  reserved: `relativePath is inside the connector's "${STATE_DIR}" folder`,
};

const fail = (reason: PathReason): PathCheck => ({ ok: false, reason, message: MESSAGES[reason] });

/**
 * Checks a synced path (`/`-separated, relative to the synced folder) and gives it in Unicode NFC. Refused: empty,
 * backslashes, control characters, absolute paths (`/x`, `C:`), empty / `.` / `..` segments, a trailing `/`, more
 * than 1,024 UTF-8 bytes, anything inside the connector's `.kb-sync` folder.
 */
export function checkPath(raw: string): PathCheck {
  if (typeof raw !== 'string' || raw.length === 0) return fail('empty');
  if (raw.includes('\\')) return fail('backslash');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fail('control_character');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return fail('absolute');
  const path = raw.normalize('NFC');
  if (path.endsWith('/')) return fail('directory');
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '') return fail('empty_segment');
    if (segment === '.') return fail('dot_segment');
    if (segment === '..') return fail('parent_segment');
  }
  if (segments[0] === STATE_DIR) return fail('reserved');
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return fail('too_long');
  return { ok: true, path };
}

/** Why a path is refused (a reason code), or null when it is fine. */
export function pathRefusal(raw: string): PathReason | null {
  const checked = checkPath(raw);
  return checked.ok ? null : checked.reason;
}
