import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

/**
 * The service's own files hold every page, attachment and password hash (the database folder, the blobs, backups)
 * or a secret (the JWT secret): only the user the service runs as may read them, whatever the umask.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Sets a mode where this process may: a folder or file it does not own (a mount prepared by someone else) keeps its
 * mode rather than stopping the service.
 */
function notOwned(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EPERM' || code === 'EACCES';
}

/** Makes `dir` (and any missing parent) readable by this user alone, and narrows an existing one made wider. */
export function privateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrowDirSync(dir);
}

/** Narrows an existing folder to this user alone; anything else (missing, a file: its users say so) is left as it is. */
export function narrowDirSync(dir: string): void {
  try {
    if (statSync(dir).isDirectory()) chmodSync(dir, PRIVATE_DIR_MODE);
  } catch (err) {
    if (!notOwned(err) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** `privateDirSync`, without blocking. */
export async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE).catch((err) => {
    if (!notOwned(err)) throw err;
  });
}
