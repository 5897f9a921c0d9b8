import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** The scheduled backups' files: `kb-backup-<UTC time>.zip`, so that names sort by age and retention touches nothing else. */
const NAME = /^kb-backup-\d{8}T\d{6}Z\.zip$/;
const PARTIAL = /^kb-backup-\d{8}T\d{6}Z\.zip\.partial$/;
/** A `.partial` file this old was left by a backup that crashed (one being written is touched all the time). */
const ABANDONED_MS = 3600_000;

/** `kb-backup-20261124T231310Z.zip` for 2026-11-24 23:13:10 UTC. */
export function scheduledBackupName(at: Date): string {
  return `kb-backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.zip`;
}

/** When the newest scheduled backup in `dir` was taken (from its name), or null when there is none. */
export async function newestBackupTime(dir: string): Promise<Date | null> {
  const newest = (await readdir(dir))
    .filter((n) => NAME.test(n))
    .sort()
    .at(-1);
  const m = newest && /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(newest);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : null;
}

/**
 * Keeps the newest `keep` scheduled backups in `dir` and deletes the older ones, and any partial file a crashed
 * backup left; files of other names are never touched. Returns the names deleted.
 */
export async function pruneBackups(dir: string, keep: number, now = new Date()): Promise<string[]> {
  const names = await readdir(dir);
  const backups = names.filter((n) => NAME.test(n)).sort();
  const deleted: string[] = [];
  for (const name of backups.slice(0, Math.max(0, backups.length - keep))) {
    await rm(path.join(dir, name), { force: true });
    deleted.push(name);
  }
  for (const name of names.filter((n) => PARTIAL.test(n))) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > ABANDONED_MS) {
      await rm(path.join(dir, name), { force: true });
      deleted.push(name);
    }
  }
  return deleted;
}
