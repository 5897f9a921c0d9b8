import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database belongs to one process: two PGlite engines on one data folder corrupt it. The service
 * writes its process id to `DATA_DIR/kb-service.pid` while it runs, and the commands that would open the data
 * folder behind its back (`kb backup`, `kb restore`) refuse while that process is alive. A file left by a process
 * that is gone (a crash, a container restart) counts as free.
 */
const FILE = 'kb-service.pid';

export function servicePidFile(dataDir: string): string {
  return path.resolve(dataDir, FILE);
}

/** Marks DATA_DIR as the running service's; returns how to unmark it (on a clean shutdown). */
export function claimDataDir(dataDir: string): () => void {
  const file = servicePidFile(dataDir);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}

/** The pid of a live service process holding DATA_DIR (not this process), or null. */
export function dataDirOwner(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(servicePidFile(dataDir), 'utf8').trim(), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null; // EPERM: alive, another user's
  }
}
