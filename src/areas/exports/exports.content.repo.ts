import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DocJson } from '../../db/tables/pages.js';
import { pageOpenToSql } from '../pages/page-access.sql.js';

/** A page as the export's tree needs it, without content. */
export interface TreePage {
  id: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  position: string;
  createdAt: Date;
  updatedAt: Date;
}

const TREE = ['p.id', 'p.parentId', 'p.title', 'p.icon', 'p.position', 'p.createdAt', 'p.updatedAt'] as const;

/**
 * What an export reads: live pages (never the trash) open to the requester (a restricted subtree closed to them is
 * left out whole), their content in batches, attachments and authors.
 */
export const exportContentRepo = {
  /** Every live page of a space open to `readerId`, by position (ties by id). */
  spacePages(db: Db, workspaceId: string, spaceId: string, readerId: string): Promise<TreePage[]> {
    return db
      .selectFrom('pages as p')
      .select(TREE)
      .where('p.workspaceId', '=', workspaceId)
      .where('p.spaceId', '=', spaceId)
      .where('p.deletedAt', 'is', null)
      .where(pageOpenToSql(sql.ref('p.id'), workspaceId, readerId))
      .orderBy('p.position')
      .orderBy('p.id')
      .execute();
  },

  /**
   * A live page and its live descendants open to `readerId` (a trashed or closed page hides its subtree), by position.
   */
  async subtreePages(db: Db, workspaceId: string, spaceId: string, rootId: string, readerId: string): Promise<TreePage[]> {
    const open = (ref: string) => pageOpenToSql(sql.ref(ref), workspaceId, readerId);
    const rows = await sql<TreePage>`
      with recursive tree(id, depth) as (
        select r.id, 0 from pages r
        where r.workspace_id = ${workspaceId} and r.space_id = ${spaceId} and r.id = ${rootId} and r.deleted_at is null and ${open('r.id')}
        union all
        select c.id, tree.depth + 1 from pages c join tree on c.parent_id = tree.id
        where c.workspace_id = ${workspaceId} and c.space_id = ${spaceId} and c.deleted_at is null and ${open('c.id')} and tree.depth < 100000
      )
      select p.id, p.parent_id as "parentId", p.title, p.icon, p.position, p.created_at as "createdAt", p.updated_at as "updatedAt"
      from pages p join tree on tree.id = p.id
      where p.workspace_id = ${workspaceId}
      order by p.position collate "C", p.id`.execute(db);
    return rows.rows;
  },

  /** Content and authorship of a batch of pages (live or not: the tree was read already). */
  async contents(db: Db, workspaceId: string, ids: string[]) {
    if (!ids.length) return [];
    return db
      .selectFrom('pages')
      .select(['id', 'content', 'createdBy'])
      .where('workspaceId', '=', workspaceId)
      .where(sql<boolean>`id = any(${ids})`)
      .execute() as Promise<{ id: string; content: DocJson; createdBy: string | null }[]>;
  },

  /** Everyone who saved a version of each page, in the order they first did: `pageId → user ids`. */
  async historyAuthors(db: Db, workspaceId: string, ids: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!ids.length) return out;
    const rows = await sql<{ pageId: string; userId: string }>`
      select page_id as "pageId", created_by as "userId" from page_history
      where workspace_id = ${workspaceId} and page_id = any(${ids}) and created_by is not null
      group by page_id, created_by
      order by page_id, min(created_at), created_by`.execute(db);
    for (const r of rows.rows) out.set(r.pageId, [...(out.get(r.pageId) ?? []), r.userId]);
    return out;
  },

  /** Display names of users by id. */
  async userNames(db: Db, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await db.selectFrom('users').select(['id', 'name']).where(sql<boolean>`id = any(${ids})`).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  },

  /** Attachments of the given pages, oldest first. */
  attachments(db: Db, workspaceId: string, pageIds: string[]) {
    if (!pageIds.length) return Promise.resolve([]);
    return db
      .selectFrom('attachments')
      .select(['id', 'pageId', 'filename', 'contentType', 'size', 'sha256', 'blobKey', 'createdAt'])
      .where('workspaceId', '=', workspaceId)
      .where(sql<boolean>`page_id = any(${pageIds})`)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },
};
