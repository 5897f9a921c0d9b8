import { type RawBuilder, sql } from 'kysely';
import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, validation } from '../../errors.js';
import { readableSpaceIds } from '../spaces/spaces.access.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { assertWorkspaceRole, type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';

/**
 * Access to something that lives in a workspace and optionally in one of its spaces (a task, project or goal):
 * with a space, the caller's role in that space decides (404 when the space is invisible to them); without one,
 * their workspace role. Outsiders get 403, as everywhere.
 */
export async function requireScopedRole(ctx: Ctx, workspaceId: string, spaceId: string | null, min: Role): Promise<Role> {
  if (!spaceId) return requireWorkspaceRole(ctx, workspaceId, min);
  const { role } = await requireSpaceRole(ctx, workspaceId, spaceId, min);
  return role;
}

/**
 * A space named in a body (a task, project or goal placed in it): it must be a space of the workspace the caller can
 * see (else 422, never revealing a private space), and the caller needs `min` in it (else 403).
 */
export async function requireSpaceInBody(ctx: Ctx, workspaceId: string, spaceId: string, min: Role, field = 'spaceId'): Promise<void> {
  try {
    await requireSpaceRole(ctx, workspaceId, spaceId, min);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw validation(field, 'not_found', `${field}: no such space in this workspace`);
    throw err;
  }
}

/**
 * SQL condition: the row's space (column `spaceColumn`, e.g. `t.space_id`) is none or one the user may read.
 * One subquery, so lists, counts and joins filter inside the database.
 */
export function visibleSpace(db: Db, spaceColumn: string, workspaceId: string, userId: string): RawBuilder<boolean> {
  const col = sql.ref(spaceColumn);
  return sql<boolean>`(${col} is null or ${col} in (${readableSpaceIds(db, workspaceId, userId)}))`;
}

/** `visibleSpace` for the acting user. */
export function visibleToActor(ctx: Ctx, spaceColumn: string, workspaceId: string): RawBuilder<boolean> {
  return visibleSpace(ctx.db, spaceColumn, workspaceId, requireActor(ctx).userId);
}

/**
 * May the caller put something (a task, project or goal) in `spaceId` of this workspace, or workspace-wide without
 * one? A member's workspace role decides workspace-wide; their space role inside a space (422 for a space they cannot
 * see or of another workspace). 404 for an unknown workspace, 403 for an outsider or a role below editor.
 */
export async function requireWriteTarget(ctx: Ctx, workspaceId: string, spaceId: string | null | undefined): Promise<void> {
  const role = await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  if (spaceId) await requireSpaceInBody(ctx, workspaceId, spaceId, 'editor');
  else assertWorkspaceRole(role, 'editor', workspaceId);
}
