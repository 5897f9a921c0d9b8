import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { asMemberScope, type MemberScope, withinKeyScopeSql } from '../workspaces/member-scope.js';

/*
 * Who may read which space, as SQL fragments. Policies use them to check one space; repositories use them to filter
 * lists inside the query (a repository never imports a policy). A workspace admin reads every space; another member
 * reads the public spaces and the private ones they hold a role in, directly or through a group.
 */

/** A role's rank in SQL (1 viewer, 2 editor, 3 admin), for `max()` over several grants. */
export const roleRankSql = (column: Expression<string>) => sql<number>`case ${column} when 'admin' then 3 when 'editor' then 2 when 'viewer' then 1 end`;

/**
 * The highest space role the user holds in space `spaceRef` (a column reference), directly or through a group,
 * as a rank (null for none). Stale grants of users who left the workspace are ignored by the callers, which
 * require workspace membership first.
 */
export function spaceRankSql(spaceRef: Expression<string>, workspaceId: string | Expression<string>, userId: string | Expression<string>) {
  return sql<number | null>`(select max(${roleRankSql(sql.ref('sm.role'))}) from space_members sm
    where sm.space_id = ${spaceRef} and sm.workspace_id = ${workspaceId}
      and (sm.user_id = ${userId}
        or sm.group_id in (select gm.group_id from group_members gm where gm.user_id = ${userId} and gm.workspace_id = ${workspaceId})))`;
}

/**
 * The ids of the workspace's spaces the user may read, as a subquery for use inside SQL:
 * `.where('pages.spaceId', 'in', readableSpaceIds(db, ws, user))`. Empty for a non-member, and for an actor whose API key
 * is scoped to another workspace (pass `memberScope(actor)` rather than a bare user id where the actor is at hand).
 */
export function readableSpaceIds(db: Db, workspaceId: string, member: string | MemberScope) {
  const { userId, keyWorkspaceId } = asMemberScope(member);
  return db
    .selectFrom('spaces as rs')
    .select('rs.id')
    .where('rs.workspaceId', '=', workspaceId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('workspaceMembers as rwm')
          .select(sql`1`.as('one'))
          .where('rwm.workspaceId', '=', workspaceId)
          .where('rwm.userId', '=', userId)
          .where(withinKeyScopeSql(sql.ref('rwm.workspace_id'), keyWorkspaceId))
          .where(sql<SqlBool>`(rs.visibility = 'public' or rwm.role = 'admin' or ${spaceRankSql(sql.ref('rs.id'), workspaceId, userId)} is not null)`),
      ),
    );
}
