import { sql } from 'kysely';
import type { Db } from '../../../db/index.js';
import type { DocJson } from '../../../db/tables/pages.js';

const ENTRY_COLUMNS = ['h.id', 'h.pageId', 'h.workspaceId', 'h.version', 'h.title', 'h.summary', 'h.createdBy', 'h.createdAt', 'h.contributors'] as const;

export interface NewEntry {
  id: string;
  workspaceId: string;
  pageId: string;
  version: number;
  title: string;
  summary: string;
  createdBy: string;
  createdAt: Date;
  /** Everyone whose edits the version holds, when several people made it together (co-editing). */
  contributors?: string[];
}

export const historyRepo = {
  /**
   * Records the page's new current version. Its content is not copied: the page row holds it (reads take it from
   * there); `supersede` stores it in the entry once the page moves on. Entries never change otherwise.
   */
  /** Current entries of many new pages at once (an import), none with contributors. */
  insertCurrentMany(db: Db, entries: NewEntry[]) {
    if (entries.length === 0) return Promise.resolve([]);
    return db
      .insertInto('pageHistory')
      .values(entries.map(({ contributors: _, ...entry }) => ({ ...entry, content: null, contributors: null })))
      .execute();
  },

  insertCurrent(db: Db, { contributors, ...entry }: NewEntry) {
    return db
      .insertInto('pageHistory')
      .values({ ...entry, content: null, contributors: contributors ? JSON.stringify(contributors) : null })
      .execute();
  },

  /**
   * Co-editing goes on within one version: the current entry takes the page's new version number and the people who
   * edited since (its content stays the page's own, so nothing is copied).
   */
  extendCurrent(db: Db, workspaceId: string, pageId: string, version: number, contributors: string[]) {
    return db
      .updateTable('pageHistory')
      .set({ version, contributors: JSON.stringify(contributors) })
      .where('workspaceId', '=', workspaceId)
      .where('pageId', '=', pageId)
      .where('content', 'is', null)
      .execute();
  },

  /**
   * The page is about to get a new version: its current entry keeps `content` (the page's content until now), so
   * it reads the same after the page changes.
   */
  supersede(db: Db, workspaceId: string, pageId: string, content: DocJson) {
    return db
      .updateTable('pageHistory')
      .set({ content: JSON.stringify(content) })
      .where('workspaceId', '=', workspaceId)
      .where('pageId', '=', pageId)
      .where('content', 'is', null)
      .execute();
  },

  /**
   * The page moves on to a new version (every writer: an update, a restore, a co-edited save): its current entry keeps
   * the content it had (`previous`), and `entry` becomes the current one.
   */
  async beginVersion(db: Db, previous: DocJson, entry: NewEntry) {
    await historyRepo.supersede(db, entry.workspaceId, entry.pageId, previous);
    await historyRepo.insertCurrent(db, entry);
  },

  /** The page's current entry (the one whose content is the page's own), to be superseded next. */
  findCurrent(db: Db, workspaceId: string, pageId: string) {
    return db
      .selectFrom('pageHistory')
      .select(['id', 'version'])
      .where('workspaceId', '=', workspaceId)
      .where('pageId', '=', pageId)
      .orderBy(sql`content is null`, 'desc')
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
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

  /** An entry with its content (the page's own for the current version). */
  find(db: Db, workspaceId: string, pageId: string, id: string) {
    return db
      .selectFrom('pageHistory as h')
      .innerJoin('pages as p', (j) => j.onRef('p.id', '=', 'h.pageId').onRef('p.workspaceId', '=', 'h.workspaceId'))
      .select([...ENTRY_COLUMNS, sql<DocJson>`coalesce(h.content, p.content)`.as('content')])
      .where('h.workspaceId', '=', workspaceId)
      .where('h.pageId', '=', pageId)
      .where('h.id', '=', id)
      .executeTakeFirst();
  },
};
