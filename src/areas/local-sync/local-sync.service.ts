import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { invalidPattern } from '../../sync-rules/globs.js';
import { connectorNotFound, requireConnector, requireSource, requireSyncRole } from './local-sync.policy.js';
import { decodeSeq, encodeSeq, presentConnector, presentSource } from './local-sync.present.js';
import { localSyncRepo } from './local-sync.repo.js';
import type { ConnectorBody, DeltasBody, EmptyBody, RegisterBody, SourceBody, SourceCreateBody } from './local-sync.schema.js';
import { SourceWriter } from './local-sync.writer.js';

/** Use cases of connectors, sources and the event stream (files, pushes and conflicts have their own services). */

/** Registers a connector instance of the caller in the workspace (any member: a read-only mirror needs one too). */
export async function registerConnector(ctx: Ctx, body: z.infer<typeof RegisterBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const now = ctx.now();
  const { name, platform, version } = body;
  const row = await localSyncRepo.insertConnector(ctx.db, {
    id: newId(),
    workspaceId: access.workspaceId,
    userId: access.userId,
    name,
    platform,
    version,
    lastSeenAt: now,
    createdAt: now,
  });
  return presentConnector(row, now);
}

/** Marks the caller's connector as alive now (another user's connector is a 404). */
export async function heartbeat(ctx: Ctx, body: z.infer<typeof ConnectorBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const now = ctx.now();
  const row = await localSyncRepo.touchOwnConnector(ctx.db, access.workspaceId, access.userId, body.connectorId, now);
  if (!row) throw connectorNotFound(body.connectorId);
  return presentConnector(row, now);
}

async function sourceRecord(ctx: Ctx, workspaceId: string, sourceId: string) {
  return presentSource(await localSyncRepo.sourceRecord(ctx.db, workspaceId, sourceId), ctx.now());
}

function checkPatterns(field: 'includePatterns' | 'excludePatterns', patterns: string[]) {
  const bad = invalidPattern(patterns);
  if (bad) throw validation(`${field}.${bad.index}`, bad.reason, `${field}[${bad.index}] is not a usable glob: ${bad.message}`);
}

export async function createSource(ctx: Ctx, body: z.infer<typeof SourceCreateBody>) {
  const access = await requireSyncRole(ctx, body, 'editor');
  checkPatterns('includePatterns', body.includePatterns);
  checkPatterns('excludePatterns', body.excludePatterns);
  const connectorId = body.connectorId ? await requireConnector(ctx.db, access.workspaceId, body.connectorId) : null;
  const id = newId();
  const { name, mode, includePatterns, excludePatterns } = body;
  try {
    await localSyncRepo.insertSource(ctx.db, {
      id,
      workspaceId: access.workspaceId,
      name,
      mode,
      connectorId,
      includePatterns,
      excludePatterns,
      createdBy: access.userId,
      createdAt: ctx.now(),
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const existing = await localSyncRepo.sourceIdByName(ctx.db, access.workspaceId, name);
    throw new AppError('ALREADY_EXISTS', `A source named "${name}" already exists in this workspace`, {
      field: 'name',
      reason: 'taken',
      sourceId: existing?.id ?? null,
    });
  }
  return sourceRecord(ctx, access.workspaceId, id);
}

export async function listSources(ctx: Ctx, body: z.infer<typeof EmptyBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const rows = await localSyncRepo.listSources(ctx.db, access.workspaceId);
  const now = ctx.now();
  return { sources: rows.map((r) => presentSource(r, now)) };
}

/** Pauses or resumes a source; a change emits source.paused / source.resumed, no change emits nothing. */
export async function setPaused(ctx: Ctx, body: z.infer<typeof SourceBody>, paused: boolean) {
  const access = await requireSyncRole(ctx, body, 'editor');
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const source = await requireSource(trx, access.workspaceId, body.sourceId, true);
    if ((source.pausedAt != null) === paused) return;
    const writer = new SourceWriter(trx, access.workspaceId, source.id, { userId: access.userId, connectorId: null }, now);
    // The paused event is the last before the pause; the resumed event the first after it.
    writer.sourceEvent(paused ? 'source.paused' : 'source.resumed');
    await writer.flush();
    await localSyncRepo.setSourcePaused(trx, access.workspaceId, source.id, paused ? access.userId : null, now);
  });
  return sourceRecord(ctx, access.workspaceId, body.sourceId);
}

/**
 * Events of a source after a cursor, in the order of their sequence. `head` (the newest event when the read
 * started) bounds the page, so when nothing more is left `nextCursor` can move past events the caller asked to
 * leave out without skipping any that commit later: every write of a source holds its row lock while it
 * numbers its events, so later commits always get higher numbers.
 */
export async function deltas(ctx: Ctx, body: z.infer<typeof DeltasBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const after = decodeSeq(body.cursor);
  if (after === null) throw validation('cursor', 'invalid', 'cursor is not a cursor this service gave out');
  const source = await requireSource(ctx.db, access.workspaceId, body.sourceId);
  const head = await localSyncRepo.headSeq(ctx.db, access.workspaceId, source.id);
  if (head <= after) return { events: [], nextCursor: encodeSeq(Math.max(after, head)), hasMore: false };
  const { events, more } = await localSyncRepo.eventPage(ctx.db, {
    workspaceId: access.workspaceId,
    sourceId: source.id,
    after,
    head,
    limit: body.limit,
    exclude: body.excludeConnectorId ?? null,
    includeContent: body.includeContent,
  });
  const nextCursor = more ? events[events.length - 1].cursor : encodeSeq(head);
  return { events, nextCursor, hasMore: more };
}
