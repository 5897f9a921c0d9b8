import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../../db/index.js';
import type { DB } from '../../../db/types.js';
import { pageOpenToSql } from '../page-access.sql.js';
import { PAGE_COLUMNS } from '../pages.repo.js';

/** Spaces to look in: one space, or a subquery of space ids (the readable ones). */
export type SpaceScope = string | SelectQueryBuilder<DB, any, { id: string }>;

export const trashRepo = {
  /**
   * Moves the page and all its live descendants to the trash in one statement (a recursive CTE), marking each
   * with who, when and the page whose deletion took it (`trash_root_id`). Descendants already in the trash keep
   * their own root. Returns how many pages were trashed.
   */
  async trashSubtree(db: Db, workspaceId: string, pageId: string, by: string, now: Date): Promise<number> {
    const result = await sql`
      with recursive sub(id) as (
        select id from pages where id = ${pageId} and workspace_id = ${workspaceId} and deleted_at is null
        union all
        select p.id from pages p join sub on p.parent_id = sub.id where p.workspace_id = ${workspaceId} and p.deleted_at is null
      )
      update pages set deleted_at = ${now}, deleted_by = ${by}, trash_root_id = ${pageId}
      where workspace_id = ${workspaceId} and id in (select id from sub)`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  },

  /**
   * Brings back the page and the descendants trashed with it (same `trash_root_id`), in one statement. The page
   * goes back under its parent, or to the space root when that parent is in the trash or gone.
   */
  async recoverSubtree(db: Db, workspaceId: string, pageId: string, rootId: string, by: string, now: Date): Promise<number> {
    const result = await sql`
      with recursive sub(id) as (
        select id from pages where id = ${pageId} and workspace_id = ${workspaceId} and trash_root_id = ${rootId}
        union all
        select p.id from pages p join sub on p.parent_id = sub.id where p.workspace_id = ${workspaceId} and p.trash_root_id = ${rootId}
      )
      update pages set deleted_at = null, deleted_by = null, trash_root_id = null, updated_at = ${now}, updated_by = ${by},
        parent_id = case
          when pages.id = ${pageId} and not exists (select 1 from pages pp where pp.id = pages.parent_id and pp.deleted_at is null) then null
          else pages.parent_id end
      where workspace_id = ${workspaceId} and id in (select id from sub)`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  },

  /**
   * Trash roots (the pages that were deleted, not their descendants) open to the user, newest deletion first, each
   * with how many it took along (those open to the user).
   */
  list(db: Db, workspaceId: string, spaces: SpaceScope, userId: string, limit: number, offset: number) {
    return db
      .selectFrom('pages as p')
      .select([
        ...PAGE_COLUMNS,
        sql<number>`(select count(*)::int from pages d where d.trash_root_id = p.id and d.id <> p.id and d.workspace_id = p.workspace_id
          and ${pageOpenToSql(sql.ref('d.id'), workspaceId, userId)})`.as('descendantCount'),
      ])
      .where('p.workspaceId', '=', workspaceId)
      .where(pageOpenToSql(sql.ref('p.id'), workspaceId, userId))
      .where('p.spaceId', 'in', typeof spaces === 'string' ? [spaces] : spaces)
      .where('p.deletedAt', 'is not', null)
      .whereRef('p.trashRootId', '=', 'p.id')
      .orderBy('p.deletedAt', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  async count(db: Db, workspaceId: string, spaces: SpaceScope, userId: string): Promise<number> {
    const row = await db
      .selectFrom('pages as p')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('p.workspaceId', '=', workspaceId)
      .where(pageOpenToSql(sql.ref('p.id'), workspaceId, userId))
      .where('p.spaceId', 'in', typeof spaces === 'string' ? [spaces] : spaces)
      .where('p.deletedAt', 'is not', null)
      .whereRef('p.trashRootId', '=', 'p.id')
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /**
   * Deletes for good every page trashed before `cutoff`, in one statement; history, comments and attachment rows go
   * with them by cascade. Returns how many pages went and the blob keys of their attachments (to remove after).
   */
  async purgeBefore(db: Db, cutoff: Date): Promise<{ purged: number; blobKeys: string[] }> {
    const result = await sql<{ purged: number; blobKeys: string[] }>`
      with gone as (delete from pages where deleted_at is not null and deleted_at < ${cutoff} returning id)
      select (select count(*)::int from gone) as purged,
        coalesce((select array_agg(a.blob_key) from attachments a where a.page_id in (select id from gone)), '{}') as blob_keys`.execute(db);
    const row = result.rows[0];
    return { purged: row?.purged ?? 0, blobKeys: row?.blobKeys ?? [] };
  },
};
