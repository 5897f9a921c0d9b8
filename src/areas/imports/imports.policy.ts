import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { notFound } from '../../errors.js';
import { checkParent } from '../pages/pages.service.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { memberRole, memberScope } from '../workspaces/workspaces.policy.js';
import type { ImportRow } from './imports.repo.js';

/**
 * Importing writes pages: the requester needs editor rights in the space, and a parent page must be a live page of
 * it. Checked when the upload arrives and again inside the transaction that writes the pages (rights may have gone).
 */
export async function requireImportTarget(ctx: Ctx, db: Db, input: { workspaceId: string; spaceId: string; parentPageId?: string | null }) {
  const scoped = { ...ctx, db };
  const { space } = await requireSpaceRole(scoped, input.workspaceId, input.spaceId, 'editor');
  if (input.parentPageId) await checkParent(scoped, db, input.workspaceId, input.spaceId, input.parentPageId);
  return space;
}

/**
 * An import is its requester's alone: 404 for anyone else, and for the requester when they are no member of its
 * workspace (they left it, or act through a key scoped to another workspace: the same scoped membership query as
 * every workspace check).
 */
export async function requireOwnImport(ctx: Ctx, id: string, row: ImportRow | undefined): Promise<ImportRow> {
  const actor = requireActor(ctx);
  if (!row || row.requestedBy !== actor.userId) throw notFound('Import', id);
  if (!(await memberRole(ctx.db, row.workspaceId, memberScope(actor))).role) throw notFound('Import', id);
  return row;
}
