import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { localPath, staysInside } from './paths.js';
import { sha256 } from './scanner.js';
import { tmpDir } from './state.js';

export type ContentType = 'text' | 'binary';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * How a file travels: `text` (the UTF-8 text itself) when the bytes are valid UTF-8 without NUL, else `binary`
 * (Base64). The service hashes the same bytes either way.
 */
export function encodeContent(bytes: Uint8Array): { content: string; contentType: ContentType } {
  if (!bytes.includes(0)) {
    try {
      return { content: utf8.decode(bytes), contentType: 'text' };
    } catch {
      // not UTF-8: binary
    }
  }
  return { content: Buffer.from(bytes).toString('base64'), contentType: 'binary' };
}

export function decodeContent(content: string, contentType: string): Buffer {
  return contentType === 'binary' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
}

/**
 * Writes `bytes` to the folder's `rel` atomically: a temporary file in `.kb-sync/tmp/` (same file system), then a
 * rename over the target, so a reader (or the watcher) never sees half a file. Keeps the mode of a file it replaces.
 * Refuses paths that are unsafe or lead outside the folder through a symbolic link. Returns size and mtime.
 */
export async function writeAtomic(root: string, rel: string, bytes: Buffer): Promise<{ size: number; mtimeMs: number }> {
  const target = localPath(root, rel);
  if (!(await staysInside(root, target))) throw new Error(`refusing to write ${rel}: a symbolic link on the way leads outside the folder`);
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = path.join(tmpDir(root), `${randomUUID()}.tmp`);
  await mkdir(tmpDir(root), { recursive: true });
  await writeFile(tmp, bytes);
  try {
    const old = await stat(target).catch(() => null);
    if (old?.isDirectory()) throw new Error(`cannot write ${rel}: a folder of that name exists`);
    if (old) await chmod(tmp, old.mode & 0o7777);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  const st = await stat(target);
  return { size: st.size, mtimeMs: st.mtimeMs };
}

/** Removes the folder's `rel` (if present) and then its parent folders that became empty, up to the root. */
export async function removeLocal(root: string, rel: string): Promise<void> {
  const target = localPath(root, rel);
  if (!(await staysInside(root, target))) throw new Error(`refusing to delete ${rel}: a symbolic link on the way leads outside the folder`);
  await rm(target, { force: true });
  let dir = path.dirname(target);
  while (dir !== root && dir.startsWith(root + path.sep)) {
    try {
      if ((await readdir(dir)).length > 0) break;
      await rmdir(dir);
    } catch {
      break;
    }
    dir = path.dirname(dir);
  }
}

/** Hash of the folder's `rel` now, or null when absent. */
export async function currentHash(root: string, rel: string): Promise<string | null> {
  try {
    return sha256(await readFile(localPath(root, rel)));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw err;
  }
}
