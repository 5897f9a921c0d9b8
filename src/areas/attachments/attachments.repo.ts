import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

const COLUMNS = ['a.id', 'a.pageId', 'a.workspaceId', 'a.filename', 'a.contentType', 'a.size', 'a.sha256', 'a.blobKey', 'a.createdAt', 'a.createdBy'] as const;

export interface NewAttachment {
  id: string;
  workspaceId: string;
  pageId: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  blobKey: string;
  createdBy: string;
}

export const attachmentsRepo = {
  listForPage(db: Db, workspaceId: string, pageId: string) {
    return db
      .selectFrom('attachments as a')
      .select(COLUMNS)
      .where('a.workspaceId', '=', workspaceId)
      .where('a.pageId', '=', pageId)
      .orderBy('a.createdAt')
      .orderBy('a.id')
      .execute();
  },

  /** By id alone: routes name no workspace, so it comes from the row. */
  find(db: Db, id: string) {
    return db.selectFrom('attachments as a').select(COLUMNS).where('a.id', '=', id).executeTakeFirst();
  },

  insert(db: Db, row: NewAttachment) {
    return db.insertInto('attachments').values(row).execute();
  },

  /** Many rows in one statement (an import); at most a few hundred at a time. */
  insertMany(db: Db, rows: NewAttachment[]) {
    if (rows.length === 0) return Promise.resolve([]);
    return db.insertInto('attachments').values(rows).execute();
  },

  /** Which of `keys` an attachment still uses (any workspace: the blob store is the service's). */
  async usedBlobKeys(db: Db, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await db.selectFrom('attachments').select('blobKey').where(sql<boolean>`blob_key = any(${keys})`).execute();
    return new Set(rows.map((r) => r.blobKey));
  },

  delete(db: Db, workspaceId: string, id: string) {
    return db.deleteFrom('attachments').where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Blob keys of every attachment on the pages of a space (read before the space is deleted). */
  async blobKeysInSpace(db: Db, workspaceId: string, spaceId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('attachments as a')
      .innerJoin('pages as p', (j) => j.onRef('p.id', '=', 'a.pageId').onRef('p.workspaceId', '=', 'a.workspaceId'))
      .select('a.blobKey')
      .where('a.workspaceId', '=', workspaceId)
      .where('p.spaceId', '=', spaceId)
      .execute();
    return rows.map((r) => r.blobKey);
  },

  /** Blob keys of every attachment on the given pages (read before the pages are purged). */
  async blobKeysOfPages(db: Db, workspaceId: string, pageIds: string[]): Promise<string[]> {
    if (!pageIds.length) return [];
    const rows = await db.selectFrom('attachments').select('blobKey').where('workspaceId', '=', workspaceId).where('pageId', 'in', pageIds).execute();
    return rows.map((r) => r.blobKey);
  },
};
