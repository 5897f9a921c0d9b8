import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeContent as decode, encodeContent as encode } from '../../sync-rules/content.js';
import { contentTypeOf } from '../../sync-rules/mime.js';
import { localPath, staysInside } from './paths.js';
import { sha256 } from './scanner.js';
import { tmpDir } from './state.js';

/**
 * How a file travels: with its MIME type (from its name, or `text/plain` / `application/octet-stream` from its
 * bytes), as UTF-8 text for text types and Base64 otherwise; the rules are shared with the service
 * (src/sync-rules/). The service hashes the same bytes either way.
 */
export function encodeContent(rel: string, bytes: Uint8Array): { content: string; contentType: string } {
  const contentType = contentTypeOf(rel, bytes);
  return { content: encode(bytes, contentType), contentType };
}

/** The bytes of content the service sent (text or Base64 by its content type); throws on malformed Base64. */
export function decodeContent(content: string, contentType: string): Buffer {
  const decoded = decode(content, contentType);
  if (!decoded.ok) throw new Error(`the service sent ${contentType} content that is not valid Base64`);
  return decoded.bytes;
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
