import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { forbidden, notFound, validation } from '../../errors.js';
import { recordAudit } from '../audit/audit.record.js';
import type { SessionCache } from '../auth/authenticator.js';
import { credentialsRepo } from '../auth/credentials.repo.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { requireSessionActor } from '../auth/sessions.js';
import { sessionsRepo } from '../auth/sessions.repo.js';
import { memberScope } from '../workspaces/member-scope.js';
import { memberRole, type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { presentSelf, presentUser } from './users.present.js';
import { usersRepo } from './users.repo.js';
import type { PasswordChangeBody, UserListQuery, UserUpdateBody } from './users.schema.js';

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
  return presentSelf(user, workspace?.callerRole ?? null);
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
  const user = await usersRepo.findVisibleTo(ctx.db, userId, memberScope(actor));
  if (!user) throw notFound('User', userId);
  const role = workspace ? (await memberRole(ctx.db, workspace.id, userId)).role : null;
  return presentUser(user, role);
}

export async function updateUser(ctx: Ctx, userId: string, input: z.infer<typeof UserUpdateBody>) {
  const actor = requireActor(ctx);
  if (userId !== actor.userId) {
    if (!(await usersRepo.findVisibleTo(ctx.db, userId, memberScope(actor)))) throw notFound('User', userId);
    throw forbidden('You can only update your own profile');
  }
  const user = await usersRepo.update(ctx.db, userId, input, ctx.now());
  return presentUser(user);
}

/**
 * Changes the caller's password and signs out every other session of theirs (the calling one stays; API keys are
 * untouched). An account without a password (single sign-on only) gets one through an admin's reset link instead.
 */
export async function changePassword(ctx: Ctx, cache: SessionCache, input: z.infer<typeof PasswordChangeBody>) {
  const actor = requireSessionActor(ctx, 'API keys cannot change the password; sign in and use the session token (JWT)');
  const current = await credentialsRepo.passwordHashOf(ctx.db, actor.userId);
  if (current === undefined) throw notFound('User', actor.userId);
  if (current === null)
    throw forbidden('This account has no password (it signs in with single sign-on); ask a workspace admin for a password-reset link', {
      reason: 'no_password',
    });
  if (!(await verifyPassword(input.currentPassword, current))) throw validation('currentPassword', 'incorrect', 'The current password is incorrect');
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.now();
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    await credentialsRepo.setPasswordHash(trx, actor.userId, passwordHash, now);
    const ids = await sessionsRepo.revoke(trx, actor.userId, now, { exceptId: actor.sessionId ?? null });
    await recordAudit(trx, ctx, {
      workspaceId: null,
      action: 'auth.password_changed',
      targetType: 'user',
      targetId: actor.userId,
      details: { sessionsRevoked: ids.length },
    });
    return ids;
  });
  cache.forgetSessions(revoked);
  return { changed: true as const, sessionsRevoked: revoked.length };
}
