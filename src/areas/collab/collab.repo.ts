import type { Db } from '../../db/index.js';
import type { DocJson } from '../../db/tables/pages.js';

export const collabRepo = {
  /** A page's live-document columns, row-locked for the transaction (co-editing's saves and seeding serialise with every edit). */
  lockLive(db: Db, pageId: string) {
    return db
      .selectFrom('pages')
      .select(['workspaceId', 'spaceId', 'title', 'content', 'ydoc', 'version', 'createdBy', 'updatedBy', 'updatedAt', 'deletedAt'])
      .where('id', '=', pageId)
      .forUpdate()
      .executeTakeFirst();
  },

  /** The page's current history version: its number, when it started, and who made it (null unless by co-editing). */
  currentVersion(db: Db, workspaceId: string, pageId: string) {
    return db
      .selectFrom('pageHistory')
      .select(['version', 'createdAt', 'contributors'])
      .where('workspaceId', '=', workspaceId)
      .where('pageId', '=', pageId)
      .where('content', 'is', null)
      .executeTakeFirst();
  },

  saveState(db: Db, pageId: string, ydoc: Uint8Array) {
    return db.updateTable('pages').set({ ydoc }).where('id', '=', pageId).execute();
  },

  /** The live document's content as the page's: JSON, text, Yjs state and version together. */
  saveContent(
    db: Db,
    pageId: string,
    change: { content: DocJson; textContent: string; ydoc: Uint8Array; version: number; updatedBy: string | null; updatedAt: Date },
  ) {
    return db
      .updateTable('pages')
      .set({ ...change, content: JSON.stringify(change.content) })
      .where('id', '=', pageId)
      .execute();
  },
};
