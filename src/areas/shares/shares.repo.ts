import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

const COLUMNS = [
  's.id',
  's.workspaceId',
  's.spaceId',
  's.pageId',
  's.includeSubtree',
  's.allowIndexing',
  's.createdBy',
  's.createdAt',
  's.updatedAt',
  's.revokedAt',
  's.lastViewedAt',
] as const;

export type ShareRow = NonNullable<Awaited<ReturnType<typeof sharesRepo.find>>>;
export type SharedPageRow = Awaited<ReturnType<typeof sharesRepo.sharedPages>>[number];

export interface NewShare {
  id: string;
  workspaceId: string;
  spaceId: string;
  pageId: string;
  includeSubtree: boolean;
  allowIndexing: boolean;
  tokenHash: string;
  createdBy: string;
}

export const sharesRepo = {
  /** By id alone: routes name no workspace, so it comes from the row. */
  find(db: Db, id: string) {
    return db.selectFrom('shares as s').select(COLUMNS).where('s.id', '=', id).executeTakeFirst();
  },

  findActiveForPage(db: Db, workspaceId: string, pageId: string) {
    return db
      .selectFrom('shares as s')
      .select(COLUMNS)
      .where('s.workspaceId', '=', workspaceId)
      .where('s.pageId', '=', pageId)
      .where('s.revokedAt', 'is', null)
      .executeTakeFirst();
  },

  /**
   * The active share a link's token hash names, if it is still alive: not revoked, its workspace still allows public
   * pages, and its page is neither in the trash nor under a restriction. Checked on every public read, so turning any
   * of these off ends the link at once.
   */
  findLiveByTokenHash(db: Db, tokenHash: string) {
    return db
      .selectFrom('shares as s')
      .innerJoin('workspaces as w', 'w.id', 's.workspaceId')
      .innerJoin('pages as p', (j) => j.onRef('p.id', '=', 's.pageId').onRef('p.workspaceId', '=', 's.workspaceId'))
      .select(COLUMNS)
      .where('s.tokenHash', '=', tokenHash)
      .where('s.revokedAt', 'is', null)
      .where(sql<boolean>`coalesce((w.settings ->> 'allowPublicPages')::boolean, false)`)
      .where('p.deletedAt', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('pageRestrictedBy as prb').select(sql`1`.as('one')).whereRef('prb.pageId', '=', 's.pageId'))),
      )
      .executeTakeFirst();
  },

  /** Active shares of a workspace, newest first, with their page's title and their creator's name. */
  listActive(db: Db, workspaceId: string) {
    return db
      .selectFrom('shares as s')
      .innerJoin('pages as p', (j) => j.onRef('p.id', '=', 's.pageId').onRef('p.workspaceId', '=', 's.workspaceId'))
      .leftJoin('users as u', 'u.id', 's.createdBy')
      .select([...COLUMNS, 'p.title as pageTitle', 'p.deletedAt as pageDeletedAt', 'u.name as creatorName'])
      .where('s.workspaceId', '=', workspaceId)
      .where('s.revokedAt', 'is', null)
      .orderBy('s.createdAt', 'desc')
      .orderBy('s.id', 'desc')
      .execute();
  },

  insert(db: Db, row: NewShare) {
    return db.insertInto('shares').values(row).execute();
  },

  updateSettings(db: Db, workspaceId: string, id: string, patch: { includeSubtree: boolean; allowIndexing: boolean }, now: Date) {
    return db
      .updateTable('shares')
      .set({ ...patch, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** Revokes an active share; the number of rows changed says whether it was still active. */
  async revoke(db: Db, workspaceId: string, id: string, by: string, now: Date): Promise<boolean> {
    const res = await db
      .updateTable('shares')
      .set({ revokedAt: now, revokedBy: by, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  /** Notes a public read, at most once a minute per share (a busy link must not write on every view). */
  touchViewed(db: Db, workspaceId: string, id: string, now: Date) {
    const aMinuteAgo = new Date(now.getTime() - 60_000);
    return db
      .updateTable('shares')
      .set({ lastViewedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lastViewedAt', 'is', null), eb('lastViewedAt', '<', aMinuteAgo)]))
      .execute();
  },

  /** Whether a restriction covers the page (it, or a page above it, is restricted). */
  async isRestricted(db: Db, workspaceId: string, pageId: string): Promise<boolean> {
    const row = await db
      .selectFrom('pageRestrictedBy')
      .select('pageId')
      .where('workspaceId', '=', workspaceId)
      .where('pageId', '=', pageId)
      .limit(1)
      .executeTakeFirst();
    return !!row;
  },

  /**
   * The pages a share opens, root first then by depth and position: the root alone, or its subtree. Trashed pages
   * and pages under a restriction are left out, with everything below them (the walk never descends through them).
   */
  async sharedPages(db: Db, workspaceId: string, rootId: string, includeSubtree: boolean) {
    const open = (ref: string) => sql`p.deleted_at is null and not exists (select 1 from page_restricted_by prb where prb.page_id = ${sql.ref(ref)})`;
    const result = await sql<{ id: string; parentId: string | null; title: string; icon: string | null; position: string; depth: number }>`
      with recursive tree(id, parent_id, title, icon, position, depth) as (
        select p.id, p.parent_id, p.title, p.icon, p.position, 0 from pages p
        where p.workspace_id = ${workspaceId} and p.id = ${rootId} and ${open('p.id')}
        union all
        select p.id, p.parent_id, p.title, p.icon, p.position, tree.depth + 1 from pages p join tree on p.parent_id = tree.id
        where ${includeSubtree} and p.workspace_id = ${workspaceId} and ${open('p.id')} and tree.depth < 100000
      )
      select id, parent_id, title, icon, position, depth from tree order by depth, position, id`.execute(db);
    return result.rows;
  },

  /** A page's public fields and content (the caller has checked it lies inside the share). */
  pageContent(db: Db, workspaceId: string, pageId: string) {
    return db
      .selectFrom('pages')
      .select(['id', 'title', 'icon', 'content', 'updatedAt'])
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', pageId)
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
  },

  /** Which of `ids` are attachments of the given pages. */
  async attachmentsOfPages(db: Db, workspaceId: string, pageIds: string[], ids: string[]): Promise<Set<string>> {
    if (!ids.length || !pageIds.length) return new Set();
    const rows = await db
      .selectFrom('attachments')
      .select('id')
      .where('workspaceId', '=', workspaceId)
      .where(sql<boolean>`page_id = any(${pageIds})`)
      .where(sql<boolean>`id = any(${ids})`)
      .execute();
    return new Set(rows.map((r) => r.id));
  },

  /** Whether the workspace allows public pages (`settings.allowPublicPages`, false unless set). */
  async allowsPublicPages(db: Db, workspaceId: string): Promise<boolean> {
    const row = await db
      .selectFrom('workspaces')
      .select(sql<boolean>`coalesce((settings ->> 'allowPublicPages')::boolean, false)`.as('allowed'))
      .where('id', '=', workspaceId)
      .executeTakeFirst();
    return row?.allowed === true;
  },
};
