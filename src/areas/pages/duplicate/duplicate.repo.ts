import { sql } from 'kysely';
import type { Db } from '../../../db/index.js';
import type { DocJson } from '../../../db/tables/pages.js';
import { pageOpenToSql } from '../page-access.sql.js';

/** A page to copy, with its depth below the copied root (0 for the root). */
export interface SourcePage {
  id: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  position: string;
  content: DocJson;
  textContent: string;
  depth: number;
  restricted: boolean;
}

export const duplicateRepo = {
  /**
   * The live page `rootId` and, with `children`, its live descendants that `userId` can open, parents before children,
   * at most `cap` + 1 rows (so the caller can tell the subtree is too big). A page closed to the user is left out with
   * everything below it: the walk does not descend through it.
   */
  async subtree(db: Db, at: { workspaceId: string; spaceId: string; rootId: string; userId: string; children: boolean; cap: number }): Promise<SourcePage[]> {
    const open = pageOpenToSql(sql.ref('c.id'), at.workspaceId, at.userId);
    const result = await sql<SourcePage>`
      with recursive tree(id, depth) as (
        select ${at.rootId}::text, 0
        union all
        select c.id, tree.depth + 1 from pages c join tree on c.parent_id = tree.id
        where ${at.children} and c.workspace_id = ${at.workspaceId} and c.space_id = ${at.spaceId}
          and c.deleted_at is null and ${open} and tree.depth < 10000
      )
      select p.id, p.parent_id as "parentId", p.title, p.icon, p.position, p.content, p.text_content as "textContent", tree.depth,
        exists (select 1 from page_restrictions r where r.page_id = p.id) as restricted
      from (select * from tree limit ${at.cap + 1}) tree join pages p on p.id = tree.id and p.workspace_id = ${at.workspaceId}
      order by tree.depth, p.position, p.id`.execute(db);
    return result.rows;
  },
};
