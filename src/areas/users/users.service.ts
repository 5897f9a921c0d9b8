import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { forbidden, notFound } from '../../errors.js';
import { memberRole, type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { presentUser } from './users.present.js';
import { usersRepo } from './users.repo.js';
import type { UserListQuery, UserUpdateBody } from './users.schema.js';

/**
 * The workspace a user read names (query or `x-workspace-id`), once the caller is known to belong to it: a role is
 * only shown in a workspace the caller can see (404 unknown workspace, 403 not a member), never ignored silently.
 */
async function namedWorkspace(ctx: Ctx, workspaceId?: string): Promise<{ id: string; callerRole: Role } | null> {
  const id = workspaceId ?? ctx.workspaceHint;
  return id ? { id, callerRole: await requireWorkspaceRole(ctx, id, 'viewer') } : null;
}

/** The caller; `role` is their role in the workspace named by the request, if any. */
export async function getMe(ctx: Ctx, workspaceId?: string) {
  const actor = requireActor(ctx);
  const workspace = await namedWorkspace(ctx, workspaceId);
  const user = await usersRepo.findById(ctx.db, actor.userId);
  if (!user) throw notFound('User', actor.userId);
  return presentUser(user, workspace?.callerRole ?? null);
}

export async function listUsers(ctx: Ctx, input: z.infer<typeof UserListQuery>) {
  await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
  const rows = await usersRepo.listInWorkspace(ctx.db, input.workspaceId, input.query?.trim() || undefined, input.limit);
  return rows.map((r) => presentUser(r, r.role));
}

/** Another user is visible when they share a workspace with the caller; otherwise 404 (their existence is not revealed). */
export async function getUser(ctx: Ctx, userId: string, workspaceId?: string) {
  const actor = requireActor(ctx);
  const workspace = await namedWorkspace(ctx, workspaceId);
  const user = await usersRepo.findVisibleTo(ctx.db, userId, actor.userId);
  if (!user) throw notFound('User', userId);
  const role = workspace ? (await memberRole(ctx.db, workspace.id, userId)).role : null;
  return presentUser(user, role);
}

export async function updateUser(ctx: Ctx, userId: string, input: z.infer<typeof UserUpdateBody>) {
  const actor = requireActor(ctx);
  if (userId !== actor.userId) {
    if (!(await usersRepo.findVisibleTo(ctx.db, userId, actor.userId))) throw notFound('User', userId);
    throw forbidden('You can only update your own profile');
  }
  const user = await usersRepo.update(ctx.db, userId, input, ctx.now());
  return presentUser(user);
}
