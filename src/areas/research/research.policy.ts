import { type Expression, type SqlBool, sql } from 'kysely';
import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { readableSpaceIds } from '../spaces/spaces.access.js';
import { memberScope, type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';

/**
 * Who may see a research job, and what a report may quote.
 *
 * A job belongs to its target space: its topic, status and report are read by those who can read that space
 * (workspace admins always). A job without `targetSpaceId` writes into its creator's private research space, so
 * only the creator and workspace admins see it.
 *
 * A report may quote only what every reader of its target space can read. The readers of a public space are all
 * the workspace's members; of a private one, the workspace admins and the users it is granted to (directly or
 * through a group). Admins read everything, so a space P may be quoted into target T when P is public, or T is
 * private and every non-admin member granted T is granted P too (T itself always qualifies). Into a public target,
 * only public spaces. Checked when the report is gathered: later changes to the grants do not rewrite reports.
 *
 * Page restrictions narrow this further: a page under a restriction (its own or an ancestor's) is never quoted. A
 * report page is read by every reader of its space, and a restricted page is by design closed to some of them (even a
 * report in the creator's own research space is read by workspace admins, who read every space but not every
 * restricted page). An unrestricted page is open to everyone who reads its space, so the space rule covers it.
 */

/** SQL: page `pageRef` (a column reference) lies under no page restriction, so a report may quote it. */
export function unrestrictedPageSql(pageRef: Expression<string>, workspaceId: string): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from page_restricted_by qrb where qrb.workspace_id = ${workspaceId} and qrb.page_id = ${pageRef})`;
}

/** The caller as a reader of research jobs: what the list and the single reads filter on. */
export interface JobReader {
  userId: string;
  isAdmin: boolean;
  readableSpaces: ReturnType<typeof readableSpaceIds>;
}

/** The workspace role check (`min`), then the caller as a reader of the workspace's jobs. */
export async function jobReader(ctx: Ctx, workspaceId: string, min: Role): Promise<JobReader> {
  const actor = requireActor(ctx);
  const role = await requireWorkspaceRole(ctx, workspaceId, min);
  return { userId: actor.userId, isAdmin: role === 'admin', readableSpaces: readableSpaceIds(ctx.db, workspaceId, memberScope(actor)) };
}

/** SQL: the user (a column or a value) holds a grant in the space (a column or a value), directly or through a group. */
function grantedSql(workspaceId: string, userId: Expression<string> | string, spaceId: Expression<string> | string) {
  return sql<SqlBool>`exists (select 1 from space_members qsm
    where qsm.workspace_id = ${workspaceId} and qsm.space_id = ${spaceId}
      and (qsm.user_id = ${userId}
        or qsm.group_id in (select qgm.group_id from group_members qgm where qgm.workspace_id = ${workspaceId} and qgm.user_id = ${userId})))`;
}

/**
 * The ids of the spaces a report saved in `targetSpaceId` may quote, among those `userId` (the job's creator) can
 * read, as a subquery. See the rule above.
 */
export function quotableSpaceIds(db: Db, workspaceId: string, userId: string, targetSpaceId: string) {
  const targetIsPrivate = sql<SqlBool>`exists (select 1 from spaces qt where qt.workspace_id = ${workspaceId} and qt.id = ${targetSpaceId} and qt.visibility = 'private')`;
  const someTargetReaderCannotRead = sql<SqlBool>`exists (select 1 from workspace_members qwm
    where qwm.workspace_id = ${workspaceId} and qwm.role <> 'admin'
      and ${grantedSql(workspaceId, sql.ref('qwm.user_id'), targetSpaceId)}
      and not ${grantedSql(workspaceId, sql.ref('qwm.user_id'), sql.ref('rs.id'))})`;
  return readableSpaceIds(db, workspaceId, userId).where(
    sql<SqlBool>`(rs.visibility = 'public' or (${targetIsPrivate} and not ${someTargetReaderCannotRead}))`,
  );
}
