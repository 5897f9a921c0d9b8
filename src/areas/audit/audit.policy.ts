import type { Ctx } from '../../context.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';

/**
 * Only a workspace's admins read its audit log (404 for an unknown workspace, 403 for anyone else). What they see
 * of account events is bounded in the query: the sign-ins of its current members made since they joined.
 */
export async function requireAuditReader(ctx: Ctx, workspaceId: string): Promise<void> {
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
}
