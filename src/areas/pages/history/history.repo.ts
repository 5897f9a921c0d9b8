import { sql } from 'kysely';
import type { Db } from '../../../db/index.js';
import type { DocJson } from '../../../db/tables/pages.js';

const ENTRY_COLUMNS = ['h.id', 'h.pageId', 'h.workspaceId', 'h.version', 'h.title', 'h.summary', 'h.createdBy', 'h.createdAt'] as const;

export const historyRepo = {
  /** Entries are written once and never changed: there is no update here. */
  insert(
    db: Db,
    entry: {
      id: string;
      workspaceId: string;
      pageId: string;
      version: number;
      title: string;
      content: DocJson;
      summary: string;
      createdBy: string;
      createdAt: Date;
    },
  ) {
    return db
      .insertInto('pageHistory')
      .values({ ...entry, content: JSON.stringify(entry.content) })
      .execute();
  },

  /** Newest first. */
  list(db: Db, workspaceId: string, pageId: string, limit: number, offset: number) {
    return db
      .selectFrom('pageHistory as h')
      .select(ENTRY_COLUMNS)
      .where('h.workspaceId', '=', workspaceId)
      .where('h.pageId', '=', pageId)
      .orderBy('h.version', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  async count(db: Db, workspaceId: string, pageId: string): Promise<number> {
    const row = await db
      .selectFrom('pageHistory')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspaceId', '=', workspaceId)
      .where('pageId', '=', pageId)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  find(db: Db, workspaceId: string, pageId: string, id: string) {
    return db
      .selectFrom('pageHistory as h')
      .select([...ENTRY_COLUMNS, 'h.content'])
      .where('h.workspaceId', '=', workspaceId)
      .where('h.pageId', '=', pageId)
      .where('h.id', '=', id)
      .executeTakeFirst();
  },
};
