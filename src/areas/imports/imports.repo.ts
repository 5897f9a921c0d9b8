import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { ImportErrorJson, ImportResultJson, ImportTable } from '../../db/tables/imports.js';

export type ImportRow = Selectable<ImportTable>;

/** Import records: the request, its upload's blob, progress, result, warnings and error. */
export const importsRepo = {
  insert(db: Db, row: Insertable<ImportTable>) {
    return db.insertInto('imports').values(row).execute();
  },

  /** By id alone: the routes name no workspace, so it comes from the row. */
  find(db: Db, id: string) {
    return db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
  },

  markRunning(db: Db, workspaceId: string, id: string, detectedSource: string | null, now: Date) {
    return db
      .updateTable('imports')
      .set({ status: 'running', startedAt: now, detectedSource, error: null, progressDone: 0 })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** Locks the record for the transaction that writes the pages; its status then (only `running` may go on). */
  async lockStatus(db: Db, workspaceId: string, id: string) {
    const row = await db.selectFrom('imports').select('status').where('workspaceId', '=', workspaceId).where('id', '=', id).forUpdate().executeTakeFirst();
    return row?.status ?? null;
  },

  progress(db: Db, workspaceId: string, id: string, done: number, total: number) {
    return db.updateTable('imports').set({ progressDone: done, progressTotal: total }).where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  succeed(db: Db, workspaceId: string, id: string, result: ImportResultJson, warnings: { path: string; message: string }[], now: Date) {
    const total = result.pages + result.attachments;
    return db
      .updateTable('imports')
      .set({
        status: 'succeeded',
        result: JSON.stringify(result),
        warnings: JSON.stringify(warnings),
        progressDone: total,
        progressTotal: total,
        finishedAt: now,
        error: null,
      })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** A failed attempt: `failed` for good, or back to `queued` when the queue will try again. */
  setFailure(db: Db, workspaceId: string, id: string, error: ImportErrorJson, warnings: { path: string; message: string }[], final: boolean, now: Date) {
    return db
      .updateTable('imports')
      .set({ status: final ? 'failed' : 'queued', error: JSON.stringify(error), warnings: JSON.stringify(warnings), finishedAt: final ? now : null })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running']) // never over a finished import (a second run's failure)
      .execute();
  },

  expired(db: Db, now: Date, limit: number) {
    return db.selectFrom('imports').select(['id', 'workspaceId', 'blobKey']).where('expiresAt', '<', now).orderBy('expiresAt').limit(limit).execute();
  },

  delete(db: Db, workspaceId: string, id: string) {
    return db.deleteFrom('imports').where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Which of `keys` an unfinished import still needs (the blob sweep leaves them alone). */
  async usedBlobKeys(db: Db, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await db
      .selectFrom('imports')
      .select('blobKey')
      .where(sql<boolean>`blob_key = any(${keys})`)
      .where('status', 'in', ['queued', 'running'])
      .execute();
    return new Set(rows.map((r) => r.blobKey));
  },

  /** The names the web app's addresses use: the workspace's hostname and the space's slug. */
  addressOf(db: Db, workspaceId: string, spaceId: string) {
    return db
      .selectFrom('spaces as s')
      .innerJoin('workspaces as w', 'w.id', 's.workspaceId')
      .select(['w.hostname', 's.slug'])
      .where('s.workspaceId', '=', workspaceId)
      .where('s.id', '=', spaceId)
      .executeTakeFirst();
  },
};

export type { ImportErrorJson, ImportResultJson };
