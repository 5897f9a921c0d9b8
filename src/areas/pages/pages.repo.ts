import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DocJson, PageTable } from '../../db/tables/pages.js';
import { readableSpaceIds } from '../spaces/spaces.access.js';
import { pageOpenToSql } from './page-access.sql.js';

/** Columns of a page in lists and results that carry no content. */
export const PAGE_COLUMNS = [
  'p.id',
  'p.workspaceId',
  'p.spaceId',
  'p.parentId',
  'p.title',
  'p.slug',
  'p.icon',
  'p.position',
  'p.version',
  'p.createdBy',
  'p.updatedBy',
  'p.createdAt',
  'p.updatedAt',
  'p.deletedAt',
  'p.deletedBy',
] as const;

/** Columns of a page in the tree view (`view=tree`). */
const TREE_COLUMNS = ['p.id', 'p.parentId', 'p.title', 'p.icon', 'p.position', 'p.updatedAt'] as const;

/**
 * Live children of the page `p` open to the user (a tree shows an expander for a page that has some). A child lives
 * in its parent's workspace and space, so the count is a range of `pages_children` (workspace, space, parent, …
 * where live), each child adding one probe of `page_restricted_by`.
 */
const childCount = (userId: string) =>
  sql<number>`(select count(*)::int from pages c
    where c.workspace_id = p.workspace_id and c.space_id = p.space_id and c.parent_id = p.id and c.deleted_at is null
      and ${pageOpenToSql(sql.ref('c.id'), sql.ref('p.workspace_id'), userId)})`.as('childCount');

/** Whether the page `p` has a live child open to the user (the tree view's expander). */
const hasChildren = (userId: string) =>
  sql<boolean>`exists (select 1 from pages c
    where c.workspace_id = p.workspace_id and c.space_id = p.space_id and c.parent_id = p.id and c.deleted_at is null
      and ${pageOpenToSql(sql.ref('c.id'), sql.ref('p.workspace_id'), userId)})`.as('hasChildren');

/** Which pages of a space to list: every page, the root pages (`null`), or the children of a page. */
export type ParentFilter = { kind: 'all' } | { kind: 'children'; parentId: string | null };

type PageRow = Selectable<PageTable>;

/** A page as it is inserted: the table's row, live (no trash fields), with a known author and validated content. */
export type NewPage = Omit<PageRow, 'content' | 'createdBy' | 'updatedBy' | 'deletedAt' | 'deletedBy' | 'trashRootId' | 'ydoc'> & {
  content: DocJson;
  createdBy: string;
  updatedBy: string;
};

export type PagePatch = Partial<Pick<NewPage, 'parentId' | 'title' | 'slug' | 'icon' | 'content' | 'textContent' | 'position' | 'version'>> & {
  /** The live document's Yjs state, kept in step with `content` once the page has one. */
  ydoc?: Uint8Array;
};

/** Live pages of a space (alias `p`) open to the user that a list filter selects. */
function livePages(db: Db, workspaceId: string, spaceId: string, userId: string, filter: ParentFilter) {
  const q = db
    .selectFrom('pages as p')
    .where('p.workspaceId', '=', workspaceId)
    .where('p.spaceId', '=', spaceId)
    .where('p.deletedAt', 'is', null)
    .where(pageOpenToSql(sql.ref('p.id'), workspaceId, userId));
  if (filter.kind === 'all') return q;
  return filter.parentId === null ? q.where('p.parentId', 'is', null) : q.where('p.parentId', '=', filter.parentId);
}

export const pagesRepo = {
  /** What access checks need: where the page lives and whether it is in the trash. */
  findRef(db: Db, id: string) {
    return db.selectFrom('pages').select(['id', 'workspaceId', 'spaceId', 'parentId', 'title', 'deletedAt']).where('id', '=', id).executeTakeFirst();
  },

  findTrashRef(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom('pages')
      .select(['id', 'deletedAt', 'trashRootId'])
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  },

  /** The page, with the children open to `userId` counted. */
  find(db: Db, workspaceId: string, id: string, userId: string) {
    return db
      .selectFrom('pages as p')
      .select([...PAGE_COLUMNS, childCount(userId)])
      .where('p.workspaceId', '=', workspaceId)
      .where('p.id', '=', id)
      .executeTakeFirst();
  },

  /** The page with its content by id alone: the read path checks access on this row (its workspace comes from it). */
  findWithContentById(db: Db, id: string, userId: string) {
    return db
      .selectFrom('pages as p')
      .select([...PAGE_COLUMNS, 'p.content', childCount(userId)])
      .where('p.id', '=', id)
      .executeTakeFirst();
  },

  /** The page with its content, row-locked for the rest of the transaction (serialises edits of one page, co-editing's saves included). */
  lockWithContent(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom('pages as p')
      .select([...PAGE_COLUMNS, 'p.content'])
      .where('p.workspaceId', '=', workspaceId)
      .where('p.id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  },

  /**
   * The space's tree lock for the transaction. `exclusive` serialises moves, trash and recovery within a space (two
   * crossing moves cannot build a cycle, a subtree is trashed whole); `shared` is what a create under a parent takes:
   * creates never wait for each other, only for a move or trash in flight (so a child never lands under a page being
   * trashed).
   */
  async lockSpaceTree(db: Db, spaceId: string, mode: 'shared' | 'exclusive' = 'exclusive') {
    const key = `pages-tree:${spaceId}`;
    if (mode === 'shared') await sql`select pg_advisory_xact_lock_shared(hashtext(${key}))`.execute(db);
    else await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
  },

  /** Live pages of a space open to the user, by position (ties by id), without content. */
  list(db: Db, workspaceId: string, spaceId: string, userId: string, filter: ParentFilter, limit: number, offset: number) {
    return livePages(db, workspaceId, spaceId, userId, filter)
      .select([...PAGE_COLUMNS, childCount(userId)])
      .orderBy('p.position')
      .orderBy('p.id')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  /** The same list with only what a page tree shows. */
  listTree(db: Db, workspaceId: string, spaceId: string, userId: string, filter: ParentFilter, limit: number, offset: number) {
    return livePages(db, workspaceId, spaceId, userId, filter)
      .select([...TREE_COLUMNS, hasChildren(userId)])
      .orderBy('p.position')
      .orderBy('p.id')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  /** The workspace's most recently edited live pages in the spaces the user may read, newest first, with the space's name. */
  listRecent(db: Db, workspaceId: string, userId: string, limit: number) {
    return db
      .selectFrom('pages as p')
      .innerJoin('spaces as s', 's.id', 'p.spaceId')
      .select([...PAGE_COLUMNS, 's.name as spaceName'])
      .where('p.workspaceId', '=', workspaceId)
      .where('p.deletedAt', 'is', null)
      .where('p.spaceId', 'in', readableSpaceIds(db, workspaceId, userId))
      .where(pageOpenToSql(sql.ref('p.id'), workspaceId, userId))
      .orderBy('p.updatedAt', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .execute();
  },

  async count(db: Db, workspaceId: string, spaceId: string, userId: string, filter: ParentFilter): Promise<number> {
    const q = livePages(db, workspaceId, spaceId, userId, filter).select(sql<number>`count(*)::int`.as('n'));
    return (await q.executeTakeFirstOrThrow()).n;
  },

  /** A live sibling (same space and parent) by id, with its position; with `userId`, only one open to that user. */
  findSibling(db: Db, workspaceId: string, spaceId: string, id: string, userId?: string) {
    let q = db
      .selectFrom('pages as p')
      .select(['p.id', 'p.parentId', 'p.position'])
      .where('p.workspaceId', '=', workspaceId)
      .where('p.spaceId', '=', spaceId)
      .where('p.id', '=', id)
      .where('p.deletedAt', 'is', null);
    if (userId) q = q.where(pageOpenToSql(sql.ref('p.id'), workspaceId, userId));
    return q.executeTakeFirst();
  },

  /**
   * The position of the nearest live sibling under `parentId` after (`>`) or before (`<`) a key, or the last one
   * when `key` is null and direction is `last`. `excludeId` leaves out the page being moved.
   */
  async siblingPosition(
    db: Db,
    at: { workspaceId: string; spaceId: string; parentId: string | null; excludeId?: string },
    where: { after: string } | { before: string } | 'last',
  ): Promise<string | null> {
    let q = db
      .selectFrom('pages')
      .select('position')
      .where('workspaceId', '=', at.workspaceId)
      .where('spaceId', '=', at.spaceId)
      .where('deletedAt', 'is', null);
    q = at.parentId === null ? q.where('parentId', 'is', null) : q.where('parentId', '=', at.parentId);
    if (at.excludeId) q = q.where('id', '<>', at.excludeId);
    if (where === 'last') q = q.orderBy('position', 'desc');
    else if ('after' in where) q = q.where('position', '>', where.after).orderBy('position', 'asc');
    else q = q.where('position', '<', where.before).orderBy('position', 'desc');
    const row = await q.limit(1).executeTakeFirst();
    return row?.position ?? null;
  },

  insert(db: Db, page: NewPage) {
    return db
      .insertInto('pages')
      .values({ ...page, content: JSON.stringify(page.content) })
      .execute();
  },

  /** Many pages in one statement (an import); parents must come before their children. */
  insertMany(db: Db, pages: NewPage[]) {
    if (pages.length === 0) return Promise.resolve([]);
    return db
      .insertInto('pages')
      .values(pages.map((page) => ({ ...page, content: JSON.stringify(page.content) })))
      .execute();
  },

  update(db: Db, workspaceId: string, id: string, patch: PagePatch, by: string, now: Date) {
    const { content, ...rest } = patch;
    return db
      .updateTable('pages')
      .set({ ...rest, ...(content ? { content: JSON.stringify(content) } : {}), updatedBy: by, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** The Yjs state of the page's live document (null before it is first co-edited): read only by writes that change content. */
  async liveState(db: Db, workspaceId: string, id: string): Promise<Uint8Array | null> {
    const row = await db.selectFrom('pages').select('ydoc').where('workspaceId', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    return row?.ydoc ?? null;
  },

  /** True when `ancestorId` is `pageId` itself or one of its ancestors (walking up parent links). */
  async isSelfOrAncestor(db: Db, workspaceId: string, ancestorId: string, pageId: string): Promise<boolean> {
    const row = await sql<{ found: number }>`
      with recursive up(id, parent_id, depth) as (
        select id, parent_id, 0 from pages where id = ${pageId} and workspace_id = ${workspaceId}
        union all
        select p.id, p.parent_id, up.depth + 1 from pages p join up on p.id = up.parent_id
        where p.workspace_id = ${workspaceId} and up.depth < 100000
      )
      select 1 as found from up where id = ${ancestorId} limit 1`.execute(db);
    return row.rows.length > 0;
  },
};
