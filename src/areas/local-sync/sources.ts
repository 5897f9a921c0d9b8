import { sql } from 'kysely';
import type { z } from 'zod';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, validation } from '../../errors.js';
import { isUniqueViolation } from '../../db/index.js';
import { newId } from '../../ids.js';
import { findSource, requireConnector, requireSyncRole } from './local-sync.policy.js';
import { presentSource, type SourceListRow } from './local-sync.present.js';
import type { EmptyBody, SourceBody, SourceCreateBody } from './local-sync.schema.js';
import { invalidPattern } from './paths.js';
import { SourceWriter } from './writer.js';

/** Sources of a workspace with their connector, live file count, open conflicts and newest event (one query). */
function sourceRows(db: Db, workspaceId: string) {
  return db
    .selectFrom('syncSources as s')
    .leftJoin('syncConnectors as c', (j) => j.onRef('c.id', '=', 's.connectorId').onRef('c.workspaceId', '=', 's.workspaceId'))
    .select([
      's.id',
      's.workspaceId',
      's.name',
      's.mode',
      's.connectorId',
      's.includePatterns',
      's.excludePatterns',
      's.pausedAt',
      's.createdBy',
      's.createdAt',
      's.updatedAt',
      'c.name as cName',
      'c.platform as cPlatform',
      'c.version as cVersion',
      'c.lastSeenAt as cLastSeenAt',
      sql<number>`(select count(*)::int from sync_files f where f.source_id = s.id and not f.deleted)`.as('fileCount'),
      sql<number>`(select count(*)::int from sync_conflicts k where k.source_id = s.id and k.status = 'open')`.as('openConflicts'),
      sql<number | null>`(select max(e.seq) from sync_events e where e.source_id = s.id)`.as('lastSeq'),
    ])
    .where('s.workspaceId', '=', workspaceId);
}

async function sourceRecord(ctx: Ctx, workspaceId: string, sourceId: string) {
  const row = (await sourceRows(ctx.db, workspaceId).where('s.id', '=', sourceId).executeTakeFirstOrThrow()) as SourceListRow;
  return presentSource(row, ctx.now());
}

function checkPatterns(field: 'includePatterns' | 'excludePatterns', patterns: string[]) {
  const bad = invalidPattern(patterns);
  if (bad) throw validation(`${field}.${bad.index}`, 'invalid_glob', `${field}[${bad.index}] is not a valid glob: ${bad.message}`);
}

export async function createSource(ctx: Ctx, body: z.infer<typeof SourceCreateBody>) {
  const access = await requireSyncRole(ctx, body, 'editor');
  checkPatterns('includePatterns', body.includePatterns);
  checkPatterns('excludePatterns', body.excludePatterns);
  const connectorId = body.connectorId ? await requireConnector(ctx.db, access.workspaceId, body.connectorId) : null;
  const id = newId();
  const now = ctx.now();
  try {
    await ctx.db
      .insertInto('syncSources')
      .values({
        id,
        workspaceId: access.workspaceId,
        name: body.name,
        mode: body.mode,
        connectorId,
        includePatterns: JSON.stringify(body.includePatterns),
        excludePatterns: JSON.stringify(body.excludePatterns),
        createdBy: access.userId,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const existing = await ctx.db
      .selectFrom('syncSources')
      .select('id')
      .where('workspaceId', '=', access.workspaceId)
      .where(sql`lower(name)`, '=', body.name.toLowerCase())
      .executeTakeFirst();
    throw new AppError('ALREADY_EXISTS', `A source named "${body.name}" already exists in this workspace`, {
      field: 'name',
      reason: 'taken',
      sourceId: existing?.id ?? null,
    });
  }
  return sourceRecord(ctx, access.workspaceId, id);
}

export async function listSources(ctx: Ctx, body: z.infer<typeof EmptyBody>) {
  const access = await requireSyncRole(ctx, body, 'viewer');
  const rows = (await sourceRows(ctx.db, access.workspaceId).orderBy('s.createdAt').orderBy('s.id').execute()) as SourceListRow[];
  const now = ctx.now();
  return { sources: rows.map((r) => presentSource(r, now)) };
}

/** Pauses or resumes a source; a change emits source.paused / source.resumed, no change emits nothing. */
export async function setPaused(ctx: Ctx, body: z.infer<typeof SourceBody>, paused: boolean) {
  const access = await requireSyncRole(ctx, body, 'editor');
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const source = await findSource(trx, access.workspaceId, body.sourceId, true);
    if ((source.pausedAt != null) === paused) return;
    const writer = new SourceWriter(trx, access.workspaceId, source.id, { userId: access.userId, connectorId: null }, now);
    // The paused event is the last before the pause; the resumed event the first after it.
    writer.sourceEvent(paused ? 'source.paused' : 'source.resumed');
    await writer.flush();
    await trx
      .updateTable('syncSources')
      .set({ pausedAt: paused ? now : null, pausedBy: paused ? access.userId : null, updatedAt: now })
      .where('id', '=', source.id)
      .where('workspaceId', '=', access.workspaceId)
      .execute();
  });
  return sourceRecord(ctx, access.workspaceId, body.sourceId);
}
