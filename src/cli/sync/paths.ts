import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';

/** The connector's own folder inside a synced directory; never synced, never watched. */
export const STATE_DIR = '.kb-sync';
export const MAX_PATH_BYTES = 1024;
const CONFLICT_MARK = '.service-conflict';

/**
 * Why a relative path (as the service and the connector exchange it: `/`-separated, relative to the synced folder)
 * is unsafe, or `null` when it is fine. A path from the service is checked before anything is written, so a bad or
 * hostile service cannot make the connector write outside its folder.
 */
export function unsafePathReason(rel: string): string | null {
  if (typeof rel !== 'string' || rel.length === 0) return 'empty path';
  if (Buffer.byteLength(rel, 'utf8') > MAX_PATH_BYTES) return `longer than ${MAX_PATH_BYTES} bytes`;
  if (rel.includes('\0')) return 'contains NUL';
  if (rel.includes('\\')) return 'contains a backslash';
  if (rel.startsWith('/') || /^[a-zA-Z]:/.test(rel)) return 'absolute path';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(rel)) return 'contains a control character';
  const parts = rel.split('/');
  for (const part of parts) {
    if (part === '') return 'empty segment';
    if (part === '.' || part === '..') return `"${part}" segment`;
  }
  if (parts[0] === STATE_DIR) return `inside ${STATE_DIR}/`;
  return null;
}

/** The local file for a service path, after checking the path; throws when it is unsafe. */
export function localPath(root: string, rel: string): string {
  const reason = unsafePathReason(rel);
  if (reason) throw new Error(`unsafe path from the service: ${JSON.stringify(rel)} (${reason})`);
  const full = path.resolve(root, ...rel.split('/'));
  const relBack = path.relative(root, full);
  if (relBack.startsWith('..') || path.isAbsolute(relBack)) throw new Error(`unsafe path from the service: ${JSON.stringify(rel)} (outside the folder)`);
  return full;
}

/**
 * Checks that no existing directory on the way from `root` to `full` is a symbolic link leading out of the folder
 * (a link planted inside the folder must not redirect a write elsewhere). Returns false when one does.
 */
export async function staysInside(root: string, full: string): Promise<boolean> {
  const realRoot = await realpath(root);
  let dir = path.dirname(full);
  while (dir.length >= root.length) {
    try {
      await lstat(dir);
      const real = await realpath(dir);
      return real === realRoot || real.startsWith(realRoot + path.sep);
    } catch {
      dir = path.dirname(dir); // not created yet: check its parent
    }
  }
  return true;
}

/** The `/`-separated relative path of a local file. */
export function relativePath(root: string, full: string): string {
  return path.relative(root, full).split(path.sep).join('/');
}

/** `docs/a.md` → `docs/a.service-conflict.md`; `Makefile` → `Makefile.service-conflict`; `.env` → `.env.service-conflict`. */
export function conflictSidePath(rel: string): string {
  const dir = path.posix.dirname(rel);
  const base = path.posix.basename(rel);
  const ext = path.posix.extname(base);
  const stem = ext ? base.slice(0, -ext.length) : base;
  const side = `${stem}${CONFLICT_MARK}${ext}`;
  return dir === '.' ? side : `${dir}/${side}`;
}

/** True for a conflict side file written by the connector (never pushed): `x.service-conflict` or `x.service-conflict.ext`. */
export function isConflictSideFile(rel: string): boolean {
  const base = path.posix.basename(rel);
  const at = base.lastIndexOf(CONFLICT_MARK);
  if (at <= 0) return false;
  const rest = base.slice(at + CONFLICT_MARK.length);
  return rest === '' || (rest.startsWith('.') && !rest.slice(1).includes('.'));
}

/** A predicate for the include and exclude globs (picomatch, `dot: true`): no include means everything. */
export function pathFilter(include: string[], exclude: string[]): (rel: string) => boolean {
  const inc = include.length ? picomatch(include, { dot: true }) : () => true;
  const exc = exclude.length ? picomatch(exclude, { dot: true }) : () => false;
  return (rel) => inc(rel) && !exc(rel);
}

/** True for a path the connector never syncs, whatever the globs say: its state folder and conflict side files. */
export function isInternal(rel: string): boolean {
  return rel === STATE_DIR || rel.startsWith(`${STATE_DIR}/`) || isConflictSideFile(rel);
}
