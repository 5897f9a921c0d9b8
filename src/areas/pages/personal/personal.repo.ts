import { sql } from 'kysely';
import type { Db } from '../../../db/index.js';
import { openPages } from '../page-access.sql.js';
import { PAGE_COLUMNS } from '../pages.repo.js';

/**
 * A person's own lists of pages: favourites and visits. Every list joins the live pages the person can open
 * (`openPages`), so a page they can no longer open, or one in the trash, drops out without its row being touched: it
 * comes back if access does.
 */

export const personalRepo = {
  /** Stars the page; starring it again keeps the first star's time (and its place in the list). */
  async addFavorite(db: Db, row: { workspaceId: string; userId: string; pageId: string; now: Date }): Promise<Date> {
    await db
      .insertInto('pageFavorites')
      .values({ workspaceId: row.workspaceId, userId: row.userId, pageId: row.pageId, createdAt: row.now })
      .onConflict((oc) => oc.columns(['workspaceId', 'userId', 'pageId']).doNothing())
      .execute();
    const found = await db
      .selectFrom('pageFavorites')
      .select('createdAt')
      .where('workspaceId', '=', row.workspaceId)
      .where('userId', '=', row.userId)
      .where('pageId', '=', row.pageId)
      .executeTakeFirstOrThrow();
    return found.createdAt;
  },

  removeFavorite(db: Db, workspaceId: string, userId: string, pageId: string) {
    return db.deleteFrom('pageFavorites').where('workspaceId', '=', workspaceId).where('userId', '=', userId).where('pageId', '=', pageId).execute();
  },

  /** The person's favourites they can open, in the order they starred them. */
  listFavorites(db: Db, workspaceId: string, userId: string, limit: number) {
    return openPages(db, workspaceId, userId)
      .innerJoin('pageFavorites as f', (j) => j.onRef('f.pageId', '=', 'p.id').onRef('f.workspaceId', '=', 'p.workspaceId'))
      .where('f.userId', '=', userId)
      .select([...PAGE_COLUMNS, 's.name as spaceName', 'f.createdAt as favoritedAt'])
      .orderBy('f.createdAt')
      .orderBy('p.id')
      .limit(limit)
      .execute();
  },

  /**
   * Records that the person opened the page now: one upsert that leaves a visit younger than `throttleSeconds` as it
   * is (so a page read many times a minute writes once).
   */
  recordVisit(db: Db, row: { workspaceId: string; userId: string; pageId: string; now: Date }, throttleSeconds: number) {
    return sql`insert into page_visits (workspace_id, user_id, page_id, visited_at)
      values (${row.workspaceId}, ${row.userId}, ${row.pageId}, ${row.now})
      on conflict (workspace_id, user_id, page_id) do update set visited_at = excluded.visited_at
      where page_visits.visited_at < excluded.visited_at - make_interval(secs => ${throttleSeconds})`.execute(db);
  },

  /** The pages the person opened last that they can still open, newest visit first. */
  listVisited(db: Db, workspaceId: string, userId: string, limit: number) {
    return openPages(db, workspaceId, userId)
      .innerJoin('pageVisits as v', (j) => j.onRef('v.pageId', '=', 'p.id').onRef('v.workspaceId', '=', 'p.workspaceId'))
      .where('v.userId', '=', userId)
      .select([...PAGE_COLUMNS, 's.name as spaceName', 'v.visitedAt'])
      .orderBy('v.visitedAt', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .execute();
  },
};
