import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInternal, pathFilter, unsafePathReason } from './paths.js';
import type { FileState } from './state.js';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface LocalFile {
  rel: string;
  full: string;
  size: number;
  mtimeMs: number;
}

export interface ScanResult {
  files: Map<string, LocalFile>;
  /** Paths skipped because the service would refuse them (too long, odd characters), with the reason. */
  skipped: Array<{ rel: string; reason: string }>;
}

/**
 * Every regular file under `root` that the source syncs: symbolic links are not followed, the state folder and
 * conflict side files are left out, then the include and exclude globs apply.
 */
export async function scanFolder(root: string, include: string[], exclude: string[]): Promise<ScanResult> {
  const wanted = pathFilter(include, exclude);
  const files = new Map<string, LocalFile>();
  const skipped: ScanResult['skipped'] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // removed while scanning
      throw err;
    }
    for (const entry of entries) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (isInternal(rel)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(full, rel);
        continue;
      }
      if (!entry.isFile() || !wanted(rel)) continue;
      const reason = unsafePathReason(rel);
      if (reason) {
        skipped.push({ rel, reason });
        continue;
      }
      try {
        const st = await stat(full);
        files.set(rel, { rel, full, size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        // removed while scanning
      }
    }
  };
  await walk(root, '');
  return { files, skipped };
}

/**
 * True when the file looks unchanged since `known` was recorded (same size and mtime), so its hash need not be taken.
 * Like git's "racily clean" rule, a file whose mtime is not clearly older than the moment it was recorded is always
 * re-hashed: an edit in the same clock tick as the recording would otherwise go unseen.
 */
export function looksUnchanged(file: LocalFile, known: FileState | undefined): boolean {
  return !!known && known.size === file.size && known.mtimeMs === file.mtimeMs && file.mtimeMs < (known.seenAt ?? 0) - 2000;
}

/** The bytes and hash of a local file, or null when it vanished. */
export async function readLocal(full: string): Promise<{ bytes: Buffer; hash: string; size: number; mtimeMs: number } | null> {
  try {
    const [bytes, st] = await Promise.all([readFile(full), stat(full)]);
    return { bytes, hash: sha256(bytes), size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') return null;
    throw err;
  }
}
