import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { readableSpaceIds } from '../spaces/spaces.access.js';

/*
 * Page-level permissions as SQL fragments, beside spaces.access.ts's space rules: a repository filters with them
 * inside its query, so a restricted page never leaves the database for someone it is closed to. They add to the space
 * check, never replace it: a reader needs space access first, and a restriction can only narrow it.
 */

/** The groups the user is in within the workspace, as a subquery. */
function groupsOfSql(workspaceId: string | Expression<string>, userId: string | Expression<string>) {
  return sql`(select gm.group_id from group_members gm where gm.user_id = ${userId} and gm.workspace_id = ${workspaceId})`;
}

/**
 * True when no restriction above page `pageRef` (a column reference, e.g. `sql.ref('p.id')`) shuts the user out:
 * for every restriction on its path, the user holds a grant, directly or through a group. Unrestricted pages pass
 * with one index probe. `workspaceId` and `userId` may be column references too (`sql.ref('p.workspace_id')`).
 */
export function pageOpenToSql(pageRef: Expression<string>, workspaceId: string | Expression<string>, userId: string | Expression<string>): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from page_restricted_by prb
    where prb.page_id = ${pageRef}
      and not exists (select 1 from page_restriction_grants prg
        where prg.page_id = prb.restriction_page_id
          and (prg.user_id = ${userId} or prg.group_id in ${groupsOfSql(workspaceId, userId)})))`;
}

/**
 * The live pages of a workspace the user can open, as a query on `pages as p` joined to `spaces as s`: access is
 * filtered inside the SQL (the space readable, no restriction closed to the user), trashed pages left out.
 */
export function openPages(db: Db, workspaceId: string, userId: string) {
  return db
    .selectFrom('pages as p')
    .innerJoin('spaces as s', (j) => j.onRef('s.id', '=', 'p.spaceId').onRef('s.workspaceId', '=', 'p.workspaceId'))
    .where('p.workspaceId', '=', workspaceId)
    .where('p.deletedAt', 'is', null)
    .where('p.spaceId', 'in', readableSpaceIds(db, workspaceId, userId))
    .where(pageOpenToSql(sql.ref('p.id'), workspaceId, userId));
}
