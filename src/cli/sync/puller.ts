import type { DeltaEvent } from './api.js';
import { ApiError } from './client.js';
import { settleResolved } from './conflicts.js';
import { currentHash, decodeContent, removeLocal, writeAtomic } from './content.js';
import { isInternal, unsafePathReason } from './paths.js';
import { sha256 } from './scanner.js';
import { filterOf, type SyncContext } from './session.js';
import type { SyncState } from './state.js';

/** Events asked for at a time: contents ride along (`includeContent`), so pages stay moderate. */
export const DELTA_PAGE = 200;

export interface PullSummary {
  written: number;
  deleted: number;
  events: number;
  kept: number;
}

/**
 * Reads the source's events after the stored cursor (leaving out this connector's own) and applies them to the
 * folder. Local work is never overwritten: a file changed here since its last sync is left alone (the next push
 * meets the service's version as a conflict). Every path is checked before anything is written.
 */
export async function pullDeltas(ctx: SyncContext, state: SyncState, save: () => Promise<void>): Promise<PullSummary> {
  const summary: PullSummary = { written: 0, deleted: 0, events: 0, kept: 0 };
  if (state.mode === 'push_only') return summary;
  for (;;) {
    if (ctx.signal?.aborted) break;
    const page = await ctx.api.deltas(state.sourceId, state.cursor, DELTA_PAGE, state.connectorId);
    // a file event followed by another for the same path in this page is superseded: only the last is applied
    const lastFileEvent = new Map<string, number>();
    page.events.forEach((e, i) => {
      if ((e.type === 'file.upsert' || e.type === 'file.delete') && e.relativePath) lastFileEvent.set(e.relativePath, i);
    });
    for (let i = 0; i < page.events.length; i++) {
      const event = page.events[i];
      summary.events++;
      if ((event.type === 'file.upsert' || event.type === 'file.delete') && lastFileEvent.get(event.relativePath ?? '') !== i) continue;
      await applyEvent(ctx, state, event, summary);
    }
    state.cursor = page.nextCursor;
    state.lastPullAt = new Date().toISOString();
    await save();
    if (!page.hasMore || page.events.length === 0) break;
  }
  if (summary.written || summary.deleted) ctx.reporter.info(`pulled: ${summary.written} written, ${summary.deleted} deleted`);
  return summary;
}

/** Applies one event to the folder: file events, resolutions seen elsewhere, source notices. */
async function applyEvent(ctx: SyncContext, state: SyncState, event: DeltaEvent, summary: PullSummary): Promise<void> {
  const rel = event.relativePath;
  if (event.type === 'source.paused' || event.type === 'source.resumed') {
    ctx.reporter.info(`source ${state.sourceName} ${event.type === 'source.paused' ? 'paused' : 'resumed'} on the service`);
    return;
  }
  if (!rel) return;
  const unsafe = unsafePathReason(rel);
  if (unsafe || isInternal(rel)) {
    ctx.reporter.warn(`ignored a service path that is unsafe here: ${JSON.stringify(rel)} (${unsafe ?? 'reserved'})`);
    return;
  }
  if (!filterOf(state)(rel)) return;
  const conflict = state.conflicts[rel];
  if (event.type === 'conflict.resolved') {
    if (conflict && conflict.conflictId === event.conflictId) {
      await settleResolved(ctx, state, rel, event.contentHash, false);
      ctx.reporter.info(`conflict on ${rel} resolved on the service (${event.resolution})`);
    }
    return;
  }
  if (conflict) return; // waits for the resolution
  if (event.type === 'file.delete') await applyDelete(ctx, state, rel, summary);
  else if (event.type === 'file.upsert') await applyUpsert(ctx, state, rel, event, summary);
  // conflict.opened elsewhere: nothing to do here
}

/** Whether the local file differs from what was last synced (a new local file counts as changed). */
async function localState(ctx: SyncContext, state: SyncState, rel: string) {
  const known = state.files[rel];
  const local = await currentHash(ctx.root, rel);
  return { known, local, changed: known ? local !== known.hash : local !== null };
}

async function applyDelete(ctx: SyncContext, state: SyncState, rel: string, summary: PullSummary): Promise<void> {
  const { local, changed } = await localState(ctx, state, rel);
  delete state.files[rel];
  if (local === null) return;
  if (!changed) {
    await removeLocal(ctx.root, rel);
    summary.deleted++;
    ctx.reporter.info(`removed ${rel} (deleted on the service)`);
    return;
  }
  // edited here, deleted there: the edit wins and is pushed again as a new file
  summary.kept++;
  ctx.reporter.warn(`${rel} was deleted on the service but changed here: keeping it (it will be pushed again)`);
}

async function applyUpsert(ctx: SyncContext, state: SyncState, rel: string, event: DeltaEvent, summary: PullSummary): Promise<void> {
  const hash = event.contentHash;
  if (!hash) return;
  const { known, local, changed } = await localState(ctx, state, rel);
  if (local === hash) {
    if (!known || known.hash !== hash) state.files[rel] = { hash, size: event.size ?? 0, mtimeMs: -1, seenAt: 0 };
    return;
  }
  if (changed) {
    summary.kept++;
    if (state.mode === 'pull_only') ctx.reporter.warn(`${rel} changed here and on the service: keeping the local file (pull_only never pushes it)`);
    return; // the next push meets the service's version as a conflict
  }
  const bytes = await eventBytes(ctx, state, rel, event, hash);
  if (!bytes) return;
  if (sha256(bytes) !== hash) {
    ctx.reporter.warn(`the service sent ${rel} with bytes that do not match its hash: not written`);
    return;
  }
  try {
    const written = await writeAtomic(ctx.root, rel, bytes);
    state.files[rel] = { hash, ...written, seenAt: Date.now() };
    summary.written++;
  } catch (err) {
    ctx.reporter.warn(`could not write ${rel}: ${(err as Error).message}`);
  }
}

/** The bytes of an upsert: carried by the event, else fetched by hash (null when the service no longer has them). */
async function eventBytes(ctx: SyncContext, state: SyncState, rel: string, event: DeltaEvent, hash: string): Promise<Buffer | null> {
  try {
    if (typeof event.content === 'string' && event.contentType) return decodeContent(event.content, event.contentType);
    const file = await ctx.api.file(state.sourceId, rel, hash);
    return decodeContent(file.content, file.contentType);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 410)) return null;
    if (err instanceof ApiError) throw err;
    ctx.reporter.warn(`could not read ${rel} from the service: ${(err as Error).message}`);
    return null;
  }
}
