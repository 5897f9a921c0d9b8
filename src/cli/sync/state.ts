import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../common.js';
import { STATE_DIR } from './paths.js';

/** What the connector last agreed with the service about one path. */
export interface FileState {
  /** SHA-256 hex of the bytes last synced (pushed and accepted, or written from the service). */
  hash: string;
  /** Size and mtime of the local file when `hash` was taken: an unchanged pair skips re-hashing on a scan. */
  size: number;
  mtimeMs: number;
  /** When size and mtime were read (ms since the epoch). */
  seenAt?: number;
}

/** An open conflict this folder takes part in (its own push was refused as stale). */
export interface ConflictState {
  conflictId: string;
  /** The local version the service keeps for the conflict (null: deleted here). */
  localHash: string | null;
  serviceHash: string | null;
  baseHash: string | null;
  /** Where the service's version was written, relative to the folder. */
  sidePath: string;
  createdAt: string;
}

/** A push sent but not yet answered: a retry after a crash reuses the operationId so the service answers `duplicate`. */
export interface PendingOp {
  operationId: string;
  hash: string | null;
  isDelete: boolean;
}

export interface SyncState {
  version: 1;
  server: string;
  workspaceId: string;
  sourceId: string;
  sourceName: string;
  connectorId: string;
  mode: string;
  include: string[];
  exclude: string[];
  cursor: string | null;
  lastSyncAt: string | null;
  lastPushAt: string | null;
  lastPullAt: string | null;
  files: Record<string, FileState>;
  conflicts: Record<string, ConflictState>;
  pending: Record<string, PendingOp>;
  /** Files the service refused (too large, say), by size and mtime: not sent again until they change. */
  rejected?: Record<string, FileState>;
}

export function stateDir(root: string): string {
  return path.join(root, STATE_DIR);
}

function statePath(root: string): string {
  return path.join(stateDir(root), 'state.json');
}

/** Temporary files for atomic writes live in the state folder (same file system, never watched or synced). */
export function tmpDir(root: string): string {
  return path.join(stateDir(root), 'tmp');
}

export async function loadState(root: string): Promise<SyncState | null> {
  let text: string;
  try {
    text = await readFile(statePath(root), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as SyncState;
    parsed.files ??= {};
    parsed.conflicts ??= {};
    parsed.pending ??= {};
    return parsed;
  } catch {
    throw new CliError(`${statePath(root)} is damaged (not JSON); move ${STATE_DIR}/ away to start over`);
  }
}

/** Writes the state atomically (temp file + rename), so a crash leaves the old or the new state, never half. */
export async function saveState(root: string, state: SyncState): Promise<void> {
  await mkdir(stateDir(root), { recursive: true });
  const tmp = `${statePath(root)}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, statePath(root));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file holding the owner's pid; a lock whose process is gone is taken over. */
export class FileLock {
  private held = false;
  constructor(private readonly file: string) {}

  /** Tries once; returns the pid of the live holder when it is taken. */
  async tryAcquire(): Promise<number | null> {
    await mkdir(path.dirname(this.file), { recursive: true });
    for (let i = 0; i < 3; i++) {
      try {
        const handle = await open(this.file, 'wx');
        await handle.writeFile(String(process.pid));
        await handle.close();
        this.held = true;
        return null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const pid = Number(await readFile(this.file, 'utf8').catch(() => ''));
      if (pid === process.pid) return pid;
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) return pid;
      await rm(this.file, { force: true }); // stale: its process is gone
    }
    return -1;
  }

  /** Waits up to `timeoutMs` for the lock. */
  async acquire(timeoutMs: number, what: string): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const holder = await this.tryAcquire();
      if (holder === null) return;
      if (Date.now() > until) throw new CliError(`${what} is busy (held by process ${holder}); try again`);
      await sleep(100);
    }
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await rm(this.file, { force: true });
  }
}

/** Held for a whole `kb sync DIR` run: one connector process per folder. */
export function runLock(root: string): FileLock {
  return new FileLock(path.join(stateDir(root), 'run.lock'));
}

/** Held while the state is read, changed and written (a sync cycle, a resolve). */
export function stateLock(root: string): FileLock {
  return new FileLock(path.join(stateDir(root), 'state.lock'));
}

/**
 * Runs `fn` on the current state under the state lock. The state is saved when `fn` ends, also when it throws (each
 * change to it is made whole, so what was done before a failure is kept); `save` writes it midway (after a batch).
 */
export async function withState<T>(root: string, fn: (state: SyncState, save: () => Promise<void>) => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const lock = stateLock(root);
  await lock.acquire(timeoutMs, `${STATE_DIR}/state.json`);
  try {
    const state = await loadState(root);
    if (!state) throw new CliError(`${root} is not a synced folder yet: run \`kb sync ${root} --workspace W\` first`);
    try {
      return await fn(state, () => saveState(root, state));
    } finally {
      await saveState(root, state);
    }
  } finally {
    await lock.release();
  }
}
