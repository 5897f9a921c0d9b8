import type { Db } from '../../db/index.js';
import type { DocJson } from '../../db/tables/pages.js';

export const collabRepo = {
  /** A page's live-document columns, row-locked for the transaction (co-editing's saves and seeding serialise with every edit). */
  lockLive(db: Db, pageId: string) {
    return db
      .selectFrom('pages')
      .select(['workspaceId', 'spaceId', 'title', 'content', 'ydoc', 'version', 'createdBy', 'updatedBy', 'deletedAt'])
      .where('id', '=', pageId)
      .forUpdate()
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
