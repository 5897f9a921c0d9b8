import { type Ctx, requireActor } from '../../context.js';
import { AppError, notFound } from '../../errors.js';
import { requirePageAccess } from '../pages/pages.policy.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { memberRole, memberScope } from '../workspaces/workspaces.policy.js';
import type { ExportRow } from './exports.present.js';

/**
 * An export is its requester's alone, and holds only what they read: the space (or page) must be readable when it
 * is requested, when the job runs, and again at download. A space's readers read every live page in it.
 */

/** What is being exported, as the requester sees it: 404/403 exactly as reading the space or the page would be. */
export async function requireExportSource(ctx: Ctx, input: { workspaceId: string; spaceId?: string; pageId?: string }) {
  if (input.pageId) {
    const { page } = await requirePageAccess(ctx, input.pageId, 'viewer', { workspaceId: input.workspaceId });
    return { spaceId: page.spaceId, pageId: page.id, name: page.title };
  }
  const { space } = await requireSpaceRole(ctx, input.workspaceId, input.spaceId as string, 'viewer');
  return { spaceId: space.id, pageId: null, name: space.name };
}

/**
 * 404 for anyone but the requester, and for the requester when they are no member of its workspace: they left it, or
 * they act through a key scoped to another workspace (the same scoped membership query as every workspace check).
 */
export async function requireOwnExport(ctx: Ctx, id: string, row: ExportRow | undefined): Promise<ExportRow> {
  const actor = requireActor(ctx);
  if (!row || row.requestedBy !== actor.userId) throw notFound('Export', id);
  if (!(await memberRole(ctx.db, row.workspaceId, memberScope(actor))).role) throw notFound('Export', id);
  return row;
}

/** The requester still reads what was exported: its space, and its root page when it was one (in the trash or not). */
export async function requireStillReader(ctx: Ctx, row: ExportRow) {
  try {
    await requireSpaceRole(ctx, row.workspaceId, row.spaceId, 'viewer');
    if (row.pageId) await requirePageAccess(ctx, row.pageId, 'viewer', { workspaceId: row.workspaceId, allowTrashed: true });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound('Export', row.id);
    throw err;
  }
}
