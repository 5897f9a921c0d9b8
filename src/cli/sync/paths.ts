import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { type PathReason, pathRefusal, STATE_DIR } from '../../sync-rules/paths.js';

export { MAX_PATH_BYTES, STATE_DIR } from '../../sync-rules/paths.js';

const CONFLICT_MARK = '.service-conflict';
export { pathFilter } from '../../sync-rules/globs.js';

/**
 * Why a relative path (as the service and the connector exchange it: `/`-separated, relative to the synced folder)
 * is unsafe (a reason code of the shared path rules, the same the service answers), or `null` when it is fine. A
 * path from the service is checked before anything is written, so a bad or hostile service cannot make the
 * connector write outside its folder; a local name the service would refuse is skipped before it is sent.
 */
export function unsafePathReason(rel: string): PathReason | null {
  return pathRefusal(rel);
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

/** True for a path the connector never syncs, whatever the globs say: its state folder and conflict side files. */
export function isInternal(rel: string): boolean {
  return rel === STATE_DIR || rel.startsWith(`${STATE_DIR}/`) || isConflictSideFile(rel);
}
