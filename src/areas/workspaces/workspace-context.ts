import { type Ctx, requireActor } from '../../context.js';
import { missingRequired } from '../../errors.js';
import { memberScope } from './member-scope.js';
import { workspaceIdsOf } from './workspaces.policy.js';

/**
 * The workspace of a request that names none in its path: the given id (from the resource, body or query),
 * else the `x-workspace-id` header, else the caller's only workspace; with several and none given, 400.
 */
export async function resolveWorkspaceId(ctx: Ctx, given?: string | null): Promise<string> {
  if (given) return given;
  if (ctx.workspaceHint) return ctx.workspaceHint;
  const actor = requireActor(ctx);
  const rows = await workspaceIdsOf(ctx.db, memberScope(actor), 2);
  if (rows.length === 1) return rows[0].workspaceId;
  throw missingRequired('workspaceId', 'workspaceId is required: pass it in the body or query, or the x-workspace-id header');
}
