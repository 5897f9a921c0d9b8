import { randomUUID } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import type { PushItem, PushResult } from './api.js';
import { ApiError } from './client.js';
import { writeConflictSide } from './conflicts.js';
import { encodeContent } from './content.js';
import { isInternal, localPath, unsafePathReason } from './paths.js';
import { type LocalFile, looksUnchanged, readLocal, scanFolder } from './scanner.js';
import { filterOf, type SyncContext } from './session.js';
import type { SyncState } from './state.js';

export const MAX_BATCH_ITEMS = 500;
/** Bytes of content in one push-batch (the service accepts 40 MB bodies; Base64 and JSON escaping need room). */
export const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/** A local change the service has not seen: an upsert (with its hash) or a delete. */
export interface LocalChange {
  rel: string;
  kind: 'create' | 'modify' | 'delete';
  hash: string | null;
  baseHash: string | null;
}

/**
 * The local changes since the last sync, by comparing the folder with the stored hashes (a file whose size and mtime
 * did not move is not re-read). `paths` limits the look to those paths (the watcher's), else the whole folder.
 * Paths with an open conflict wait for its resolution. Also refreshes size/mtime of files found unchanged.
 */
export async function detectChanges(
  root: string,
  state: SyncState,
  paths?: Iterable<string>,
): Promise<{ changes: LocalChange[]; skipped: Array<{ rel: string; reason: string }> }> {
  const wanted = filterOf(state);
  const candidates = new Map<string, LocalFile | null>();
  let skipped: Array<{ rel: string; reason: string }> = [];
  if (paths) {
    for (const rel of paths) {
      if (isInternal(rel) || unsafePathReason(rel) || !wanted(rel)) continue;
      const full = localPath(root, rel);
      const st = await lstat(full).catch(() => null); // a symbolic link is not followed (as in a full scan)
      candidates.set(rel, st?.isFile() ? { rel, full, size: st.size, mtimeMs: st.mtimeMs } : null);
    }
  } else {
    const scan = await scanFolder(root, state.include, state.exclude);
    skipped = scan.skipped;
    for (const [rel, file] of scan.files) candidates.set(rel, file);
    for (const rel of Object.keys(state.files)) if (!candidates.has(rel) && wanted(rel)) candidates.set(rel, null);
  }
  const changes: LocalChange[] = [];
  for (const [rel, file] of [...candidates].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (state.conflicts[rel]) continue;
    const known = state.files[rel];
    if (!file) {
      if (known) changes.push({ rel, kind: 'delete', hash: null, baseHash: known.hash });
      continue;
    }
    if (looksUnchanged(file, known)) continue;
    const refused = state.rejected?.[rel];
    if (refused && refused.size === file.size && refused.mtimeMs === file.mtimeMs) continue;
    const local = await readLocal(file.full);
    if (!local) {
      if (known) changes.push({ rel, kind: 'delete', hash: null, baseHash: known.hash });
      continue;
    }
    if (known && local.hash === known.hash) {
      state.files[rel] = { hash: known.hash, size: local.size, mtimeMs: local.mtimeMs, seenAt: Date.now() };
      continue;
    }
    changes.push({ rel, kind: known ? 'modify' : 'create', hash: local.hash, baseHash: known?.hash ?? null });
  }
  return { changes, skipped };
}

export interface PushSummary {
  applied: number;
  unchanged: number;
  conflicts: number;
  rejected: number;
  bytes: number;
}

/** Reuses the operationId of an unanswered push of the same change (after a crash), so the service answers `duplicate`. */
function operationFor(state: SyncState, rel: string, hash: string | null, isDelete: boolean): string {
  const pending = state.pending[rel];
  if (pending && pending.hash === hash && pending.isDelete === isDelete) return pending.operationId;
  const operationId = randomUUID();
  state.pending[rel] = { operationId, hash, isDelete };
  return operationId;
}

/** A change ready to send, with the size and mtime of the bytes it carries (recorded when the service takes it). */
interface Outgoing {
  item: PushItem;
  size: number;
  mtimeMs: number;
}

/** One push: collects items into batches (500 items, 8 MB) and sends each, recording the answers in the state. */
class PushRun {
  private batch: Outgoing[] = [];
  private batchBytes = 0;
  private done = 0;
  readonly summary: PushSummary = { applied: 0, unchanged: 0, conflicts: 0, rejected: 0, bytes: 0 };

  constructor(
    private readonly ctx: SyncContext,
    private readonly state: SyncState,
    private readonly save: () => Promise<void>,
    private readonly logEach: boolean,
  ) {}

  /** Adds one change, sending the batch first when it would grow past 8 MB, and after it when it is full. */
  async add(change: LocalChange): Promise<void> {
    const out = change.kind === 'delete' ? this.deletion(change) : await this.upsert(change);
    if (!out) {
      this.done++;
      return; // vanished since the scan: the next look sees the delete
    }
    const bytes = out.item.content?.length ?? 0;
    if (bytes && this.batchBytes + bytes > MAX_BATCH_BYTES) await this.flush();
    this.batch.push(out);
    this.batchBytes += bytes;
    this.summary.bytes += out.size;
    if (this.batch.length >= MAX_BATCH_ITEMS) await this.flush();
  }

  private deletion(change: LocalChange): Outgoing {
    const operationId = operationFor(this.state, change.rel, null, true);
    return { item: { operationId, relativePath: change.rel, isDelete: true, baseHash: change.baseHash }, size: 0, mtimeMs: 0 };
  }

  private async upsert(change: LocalChange): Promise<Outgoing | null> {
    const local = await readLocal(localPath(this.ctx.root, change.rel)); // read again: the bytes sent and their hash belong together
    if (!local) return null;
    const { content, contentType } = encodeContent(change.rel, local.bytes);
    const operationId = operationFor(this.state, change.rel, local.hash, false);
    const item: PushItem = { operationId, relativePath: change.rel, content, contentType, contentHash: local.hash, baseHash: change.baseHash, isDelete: false };
    return { item, size: local.size, mtimeMs: local.mtimeMs };
  }

  /** Sends the collected batch (its operationIds saved first) and records each answer. */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const sent = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    await this.save(); // the pending operationIds are on disk before the request goes out
    const results = await this.send(sent.map((b) => b.item));
    for (let i = 0; i < sent.length; i++) await applyResult(this.ctx, this.state, sent[i], results[i], this.summary, this.logEach);
    this.done += sent.length;
    this.ctx.reporter.update(this.done, this.summary.bytes);
    this.state.lastPushAt = new Date().toISOString();
    await this.save();
  }

  private async send(items: PushItem[]): Promise<PushResult[]> {
    try {
      return (await this.ctx.api.push(this.state.sourceId, this.state.connectorId, items)).results;
    } catch (err) {
      if (err instanceof ApiError && err.status === 403 && err.details.reason === 'source_paused') throw new PausedError();
      throw err;
    }
  }
}

/**
 * Pushes the local changes in batches of at most 500 items (and 8 MB), each batch answered item by item, and
 * records the outcome: applied/unchanged/duplicate → the new synced hash; conflict → the service's version is
 * written beside the file and the path waits; rejected → a warning, retried on a later scan.
 */
export async function pushChanges(ctx: SyncContext, state: SyncState, save: () => Promise<void>, paths?: Iterable<string>): Promise<PushSummary> {
  if (state.mode === 'pull_only') return { applied: 0, unchanged: 0, conflicts: 0, rejected: 0, bytes: 0 };
  const { changes, skipped } = await detectChanges(ctx.root, state, paths);
  for (const s of skipped) ctx.reporter.warn(`not synced: ${s.rel} (${s.reason})`);
  const logEach = changes.length <= 50; // a line per file for small pushes; the progress bar for big ones
  const run = new PushRun(ctx, state, save, logEach);
  if (changes.length === 0) return run.summary;
  if (!logEach) ctx.reporter.start('pushing', changes.length);
  try {
    for (const change of changes) {
      if (ctx.signal?.aborted) break;
      await run.add(change);
    }
    await run.flush();
  } finally {
    ctx.reporter.finish();
  }
  return run.summary;
}

/** The source is paused: pushes wait (reads go on). */
export class PausedError extends Error {
  constructor() {
    super('the source is paused on the service: local changes wait until it is resumed');
    this.name = 'PausedError';
  }
}

async function applyResult(ctx: SyncContext, state: SyncState, sent: Outgoing, result: PushResult | undefined, summary: PushSummary, logEach: boolean) {
  const { item } = sent;
  const rel = item.relativePath;
  if (!result || result.operationId !== item.operationId) throw new Error(`the service answered push-batch out of order (${rel})`);
  const status = result.status === 'duplicate' ? (result.originalStatus ?? 'applied') : result.status;
  switch (status) {
    case 'applied':
    case 'unchanged':
      if (state.rejected) delete state.rejected[rel];
      if (item.isDelete) delete state.files[rel];
      else state.files[rel] = { hash: item.contentHash!, size: sent.size, mtimeMs: sent.mtimeMs, seenAt: Date.now() };
      delete state.pending[rel];
      if (status === 'applied') {
        summary.applied++;
        if (logEach) ctx.reporter.info(`${item.isDelete ? 'deleted' : 'pushed'} ${rel}`);
      } else summary.unchanged++;
      return;
    case 'conflict': {
      delete state.pending[rel];
      summary.conflicts++;
      await writeConflictSide(ctx, state, {
        conflictId: result.conflictId!,
        relativePath: rel,
        localHash: item.isDelete ? null : item.contentHash!,
        serviceHash: result.serviceHash,
        baseHash: item.baseHash ?? null,
      });
      return;
    }
    default: {
      delete state.pending[rel];
      summary.rejected++;
      if (!item.isDelete) {
        state.rejected ??= {};
        state.rejected[rel] = { hash: item.contentHash!, size: sent.size, mtimeMs: sent.mtimeMs, seenAt: Date.now() };
      }
      const e = result.error;
      ctx.reporter.warn(`the service refused ${rel}: ${e?.message ?? result.status}${e?.reason ? ` (${e.reason})` : ''}`);
    }
  }
}
