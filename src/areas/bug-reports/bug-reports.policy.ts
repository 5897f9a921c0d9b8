import { type Ctx, requireActor } from '../../context.js';
import { forbidden, notFound } from '../../errors.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { isNamedVerifiedAccount } from '../users/named-accounts.js';
import { memberScope } from '../workspaces/member-scope.js';
import { resolveWorkspaceId } from '../workspaces/workspace-context.js';
import { requireWorkspaceRole, workspaceIdsOf } from '../workspaces/workspaces.policy.js';

/**
 * Who may do what with bug reports: every operation but `auto` needs the admin role in the report's workspace.
 * A service-level report (no workspace) is for the users named in BUG_REPORT_ADMINS only.
 */

/**
 * A user named in BUG_REPORT_ADMINS whose email kb has verified; never through a key scoped to one workspace (it acts
 * in that workspace only).
 */
export async function isServiceAdmin(ctx: Ctx): Promise<boolean> {
  const actor = requireActor(ctx);
  if (actor.workspaceId) return false;
  return isNamedVerifiedAccount(ctx.db, ctx.env.config.BUG_REPORT_ADMINS, actor.userId);
}

/** Admin of the report's workspace (404 unknown workspace, 403 otherwise), or a service admin for a service-level report. */
export async function requireReportAdmin(ctx: Ctx, workspaceId: string | null): Promise<void> {
  if (workspaceId !== null) {
    await requireWorkspaceRole(ctx, workspaceId, 'admin');
    return;
  }
  if (!(await isServiceAdmin(ctx))) throw forbidden('Service-level bug reports (no workspace) are for the service admins (BUG_REPORT_ADMINS)');
}

/**
 * The workspace a new report belongs to, as decisions.md orders it: `workspaceId`, else the workspace of
 * `spaceId`, else the workspace context. A named space must be readable by the caller (a private space they cannot
 * see is a 404), and must be in the named workspace.
 *
 * `create` requires a workspace (the context rules, 400 when ambiguous). `auto` falls back to none (a service-level
 * report) when neither the body nor the `x-workspace-id` header names one and the caller is not in exactly one.
 */
export async function resolveReportWorkspace(ctx: Ctx, given: { workspaceId?: string; spaceId?: string }, mode: 'create' | 'auto'): Promise<string | null> {
  const actor = requireActor(ctx);
  let workspaceId: string | null | undefined = given.workspaceId;
  if (!workspaceId && given.spaceId) {
    const space = await ctx.db.selectFrom('spaces').select('workspaceId').where('id', '=', given.spaceId).executeTakeFirst();
    if (!space) throw notFound('Space', given.spaceId);
    workspaceId = space.workspaceId;
  }
  if (!workspaceId) {
    if (mode === 'create') workspaceId = await resolveWorkspaceId(ctx);
    else if (ctx.workspaceHint) workspaceId = ctx.workspaceHint;
    else {
      const mine = await workspaceIdsOf(ctx.db, memberScope(actor), 2);
      workspaceId = mine.length === 1 ? mine[0].workspaceId : null;
    }
  }
  if (workspaceId === null) return null;
  if (given.spaceId) await requireSpaceRole(ctx, workspaceId, given.spaceId, 'viewer');
  await requireWorkspaceRole(ctx, workspaceId, mode === 'create' ? 'admin' : 'viewer');
  return workspaceId;
}
