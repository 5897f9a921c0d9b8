import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../common.js';
import type { ConflictRecord } from './api.js';
import { ApiError } from './client.js';
import { currentHash, decodeContent, removeLocal, writeAtomic } from './content.js';
import { conflictSidePath, isConflictSideFile, localPath, relativePath } from './paths.js';
import { openFolder, type SyncContext, withState } from './session.js';
import type { SyncState } from './state.js';

/**
 * Records a conflict this folder's push ran into and writes the service's version beside the file
 * (`name.service-conflict.ext`). The local file is left exactly as it is.
 */
export async function writeConflictSide(
  ctx: SyncContext,
  state: SyncState,
  c: { conflictId: string; relativePath: string; localHash: string | null; serviceHash: string | null; baseHash: string | null },
): Promise<void> {
  const rel = c.relativePath;
  const sidePath = conflictSidePath(rel);
  if (c.serviceHash) {
    try {
      const file = await ctx.api.file(state.sourceId, rel, c.serviceHash);
      await writeAtomic(ctx.root, sidePath, decodeContent(file.content, file.contentType));
    } catch (err) {
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 410))) throw err;
    }
  }
  state.conflicts[rel] = {
    conflictId: c.conflictId,
    localHash: c.localHash,
    serviceHash: c.serviceHash,
    baseHash: c.baseHash,
    sidePath,
    createdAt: new Date().toISOString(),
  };
  const where = c.serviceHash ? `the service's version is in ${sidePath}` : 'the service deleted it';
  ctx.reporter.warn(
    `conflict on ${rel}: ${where}; your file is untouched. See it with: kb sync diff ${ctx.root} ${rel}; settle it with: kb sync resolve ${ctx.root} ${rel} --keep local|service|merge`,
  );
}

/**
 * Brings the folder in line with a resolved conflict whose result is `resultHash` (null: the file was deleted).
 * The result is written over the local file when the user chose it here (`force`) or when the local file has not
 * changed since the conflict; a local file edited since is kept (and pushed on the next cycle against the result).
 * The side file goes away and the conflict is forgotten.
 */
export async function settleResolved(ctx: SyncContext, state: SyncState, rel: string, resultHash: string | null, force: boolean): Promise<void> {
  const c = state.conflicts[rel];
  const local = await currentHash(ctx.root, rel);
  const untouched = c ? local === c.localHash : false;
  if (resultHash === null) {
    if (local !== null && (force || untouched)) await removeLocal(ctx.root, rel);
    delete state.files[rel];
  } else if (local === resultHash) {
    const st = await stat(localPath(ctx.root, rel));
    state.files[rel] = { hash: resultHash, size: st.size, mtimeMs: st.mtimeMs, seenAt: Date.now() };
  } else if (force || untouched || local === null) {
    const file = await ctx.api.file(state.sourceId, rel, resultHash);
    const written = await writeAtomic(ctx.root, rel, decodeContent(file.content, file.contentType));
    state.files[rel] = { hash: resultHash, ...written, seenAt: Date.now() };
  } else {
    // edited since the conflict: keep the edit; it is pushed next with the result as its base
    state.files[rel] = { hash: resultHash, size: -1, mtimeMs: -1, seenAt: 0 };
  }
  const side = c?.sidePath ?? conflictSidePath(rel);
  if (existsSync(localPath(ctx.root, side))) await removeLocal(ctx.root, side);
  delete state.conflicts[rel];
  delete state.pending[rel];
}

/** The synced path a command-line argument names: a path in the folder (absolute or from here), or a relative path; a side file names its file. */
export function pathArgument(root: string, state: SyncState, arg: string): string {
  let rel = arg.replace(/\\/g, '/');
  const abs = path.resolve(arg);
  if (path.isAbsolute(arg) || existsSync(abs)) {
    const r = path.relative(root, abs);
    if (!r.startsWith('..') && !path.isAbsolute(r)) rel = relativePath(root, abs);
  }
  rel = rel.replace(/^\.\//, '');
  if (isConflictSideFile(rel)) {
    const owner = Object.entries(state.conflicts).find(([, c]) => c.sidePath === rel);
    if (owner) rel = owner[0];
  }
  return rel;
}

export interface ConflictRow {
  relativePath: string;
  conflictId: string;
  localHash: string | null;
  serviceHash: string | null;
  baseHash: string | null;
  sidePath: string | null;
  /** This folder holds the conflict (its push met it) and has the side file. */
  here: boolean;
  createdAt: string;
}

/** Open conflicts of the source (from the service), marked with what this folder holds. */
export async function listConflicts(dir: string): Promise<{ root: string; rows: ConflictRow[] }> {
  const { root, state, ctx } = await openFolder(dir, { maxAttempts: 3 });
  const remote: ConflictRecord[] = (await ctx.api.conflicts(state.sourceId)).conflicts;
  const rows: ConflictRow[] = remote.map((c) => {
    const mine = state.conflicts[c.relativePath];
    return {
      relativePath: c.relativePath,
      conflictId: c.conflictId,
      localHash: c.localHash,
      serviceHash: c.serviceHash,
      baseHash: c.baseHash,
      sidePath: mine && mine.conflictId === c.conflictId ? mine.sidePath : null,
      here: !!mine && mine.conflictId === c.conflictId,
      createdAt: c.createdAt,
    };
  });
  return { root, rows };
}

/** How `kb sync resolve` settles a conflict: one side, or the service's automatic three-way merge. */
export type Keep = 'local' | 'service' | 'merge';

/** The open conflict on a path: the one this folder holds, else the service's. */
async function openConflictId(ctx: SyncContext, state: SyncState, rel: string): Promise<string> {
  const held = state.conflicts[rel]?.conflictId;
  if (held) return held;
  const open = (await ctx.api.conflicts(state.sourceId)).conflicts.find((c) => c.relativePath === rel);
  if (!open) throw new CliError(`no open conflict on ${rel}`);
  return open.conflictId;
}

/** The three-way view of the open conflict on a path (`kb sync diff`). */
export async function previewConflict(dir: string, arg: string) {
  const { root, state, ctx } = await openFolder(dir, { maxAttempts: 3 });
  const rel = pathArgument(root, state, arg);
  return ctx.api.preview(await openConflictId(ctx, state, rel));
}

/**
 * `kb sync resolve DIR PATH --keep local|service|merge`: asks the service to resolve the path's open conflict, then
 * settles the folder: `service` writes the service's version over the file, `local` keeps the file as it is, `merge`
 * sends the service's automatic three-way merge (only when no change clashes) and writes it over the file.
 */
export async function resolveConflict(dir: string, arg: string, keep: Keep) {
  const { root, state: initial, ctx } = await openFolder(dir, { maxAttempts: 3 });
  const rel = pathArgument(root, initial, arg);
  return withState(root, async (state) => {
    const conflictId = await openConflictId(ctx, state, rel);
    let resultHash: string | null;
    let already = false;
    try {
      const result =
        keep === 'merge' ? await resolveByMerge(ctx, state, rel, conflictId) : await ctx.api.resolve(conflictId, RESOLUTION[keep], state.connectorId);
      resultHash = result.deleted ? null : result.contentHash;
    } catch (err) {
      if (!(err instanceof ApiError && err.details.reason === 'already_resolved')) throw err;
      // settled elsewhere meanwhile: follow the service's current version
      resultHash = await currentServiceHash(ctx, state, rel);
      already = true;
      ctx.reporter.warn(`the conflict on ${rel} was already resolved on the service; the folder follows that resolution`);
    }
    await settleResolved(ctx, state, rel, resultHash, keep !== 'local');
    return { rel, resultHash, already };
  });
}

/** The hash of the path's current version on the service; null when it was deleted there. */
async function currentServiceHash(ctx: SyncContext, state: SyncState, rel: string): Promise<string | null> {
  try {
    return (await ctx.api.file(state.sourceId, rel)).contentHash;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 410)) throw err;
    return null;
  }
}

const RESOLUTION = { local: 'keep_local', service: 'keep_service' } as const;

async function resolveByMerge(ctx: SyncContext, state: SyncState, rel: string, conflictId: string) {
  const preview = await ctx.api.preview(conflictId);
  if (!preview.mergeable || preview.merged === null) {
    const why = preview.binary
      ? 'it is binary'
      : !preview.local || !preview.service
        ? 'one side deleted it'
        : `${preview.clashes} change${preview.clashes === 1 ? '' : 's'} clash`;
    throw new CliError(`${rel} cannot be merged automatically: ${why}. See them with \`kb sync diff ${ctx.root} ${rel}\`, then keep local or service`);
  }
  // The merge is text: it keeps the local side's MIME type (both sides are text when it merges).
  const contentType = preview.local?.contentType ?? 'text';
  return ctx.api.resolve(conflictId, 'manual_merge', state.connectorId, { content: preview.merged, contentType });
}
