import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { ExportTable } from '../../db/tables/exports.js';
import type { Insertable } from 'kysely';

/** Export records: the request, its progress and its zip's blob. */
export const exportsRepo = {
  insert(db: Db, row: Insertable<ExportTable>) {
    return db.insertInto('exports').values(row).execute();
  },

  /** By id alone: the routes name no workspace, so it comes from the row. */
  find(db: Db, id: string) {
    return db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst();
  },

  markRunning(db: Db, workspaceId: string, id: string, now: Date) {
    return db
      .updateTable('exports')
      .set({ status: 'running', startedAt: now, error: null, progressDone: 0 })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  progress(db: Db, workspaceId: string, id: string, done: number, total: number) {
    return db.updateTable('exports').set({ progressDone: done, progressTotal: total }).where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  succeed(db: Db, workspaceId: string, id: string, zip: { size: number; sha256: string }, now: Date) {
    return db
      .updateTable('exports')
      .set({ status: 'succeeded', size: zip.size, sha256: zip.sha256, finishedAt: now, error: null })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** A failed attempt: `failed` for good, or back to `queued` when the queue will try again. */
  setFailure(db: Db, workspaceId: string, id: string, error: string, final: boolean, now: Date) {
    return db
      .updateTable('exports')
      .set({ status: final ? 'failed' : 'queued', error: error.slice(0, 2000), finishedAt: final ? now : null })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running']) // never over a finished export
      .execute();
  },

  /** Exports past their expiry (any workspace: a service-wide sweep), oldest first. */
  expired(db: Db, now: Date, limit: number) {
    return db.selectFrom('exports').select(['id', 'workspaceId', 'blobKey']).where('expiresAt', '<', now).orderBy('expiresAt').limit(limit).execute();
  },

  delete(db: Db, workspaceId: string, id: string) {
    return db.deleteFrom('exports').where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Which of `keys` an export still owns (the blob sweep leaves them alone). */
  async usedBlobKeys(db: Db, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await db.selectFrom('exports').select('blobKey').where(sql<boolean>`blob_key = any(${keys})`).execute();
    return new Set(rows.map((r) => r.blobKey));
  },
};
