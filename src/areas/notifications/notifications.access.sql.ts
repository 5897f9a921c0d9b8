import { type Expression, type SqlBool, sql } from 'kysely';
import { pageOpenToSql } from '../pages/page-access.sql.js';
import { spaceRankSql } from '../spaces/spaces.access.js';

/**
 * Whether a person may read what a notification (or an event) names, as SQL over column references, so a whole
 * batch of recipients is filtered inside one query: a member of the workspace; the space readable (public, a role in
 * it directly or through a group, or workspace admin); the page open to them under page restrictions. The space of a
 * page event without one is the page's own.
 */
export function recipientMayReadSql(refs: {
  userId: Expression<string>;
  workspaceId: Expression<string>;
  spaceId: Expression<string | null>;
  pageId: Expression<string | null>;
}): Expression<SqlBool> {
  const { userId, workspaceId, spaceId, pageId } = refs;
  const space = sql<string | null>`coalesce(${spaceId}, (select rp.space_id from pages rp where rp.id = ${pageId} and rp.workspace_id = ${workspaceId}))`;
  return sql<SqlBool>`(exists (select 1 from workspace_members rwm where rwm.workspace_id = ${workspaceId} and rwm.user_id = ${userId}
      and (${space} is null or exists (select 1 from spaces rs where rs.id = ${space} and rs.workspace_id = ${workspaceId}
        and (rs.visibility = 'public' or rwm.role = 'admin' or ${spaceRankSql(sql.ref('rs.id'), workspaceId, userId)} is not null))))
    and (${pageId} is null or ${pageOpenToSql(pageId as Expression<string>, workspaceId, userId)}))`;
}
