import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError, alreadyExists, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit } from '../audit/audit.record.js';
import { credentialsRepo } from '../auth/credentials.repo.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { groupsRepo } from '../groups/groups.repo.js';
import { inviteAccount } from '../invitations/invitations.service.js';
import { endMemberConnections, forgetEndedConnections } from '../oauth/oauth.membership.js';
import { restrictionsRepo } from '../pages/restrictions/restrictions.repo.js';
import { spacesRepo } from '../spaces/spaces.repo.js';
import { usersRepo } from '../users/users.repo.js';
import { directAddReason } from './member-add.policy.js';
import { memberScope } from './member-scope.js';
import { assertWorkspaceRole, memberRole, type Role, requireWorkspaceRole } from './workspaces.policy.js';
import { DEFAULT_SETTINGS, presentMember, presentWorkspace } from './workspaces.present.js';
import { workspacesRepo } from './workspaces.repo.js';
import type { MemberAddBody, WorkspaceCreateBody, WorkspaceUpdateBody } from './workspaces.schema.js';

export async function listWorkspaces(ctx: Ctx) {
  const actor = requireActor(ctx);
  const rows = await workspacesRepo.listForUser(ctx.db, memberScope(actor));
  return rows.map((r) => presentWorkspace(r, r.role as Role));
}

export async function getWorkspace(ctx: Ctx, workspaceId: string) {
  const actor = requireActor(ctx);
  const row = await workspacesRepo.findForUser(ctx.db, workspaceId, memberScope(actor));
  if (!row) throw notFound('Workspace', workspaceId);
  assertWorkspaceRole(row.role as Role | null, 'viewer', workspaceId);
  return presentWorkspace(row);
}

export async function createWorkspace(ctx: Ctx, input: z.infer<typeof WorkspaceCreateBody>) {
  const actor = requireActor(ctx);
  if (actor.workspaceId)
    throw forbidden('This API key is limited to one workspace and cannot create another', { reason: 'key_workspace_scope', workspaceId: actor.workspaceId });
  const id = newId();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await workspacesRepo.insert(trx, {
        id,
        name: input.name,
        hostname: input.hostname,
        description: input.description ?? null,
        logoUrl: input.logoUrl ?? null,
        settings: DEFAULT_SETTINGS,
      });
      await workspacesRepo.insertMember(trx, id, actor.userId, 'admin');
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(`Hostname "${input.hostname}" is already taken`, 'hostname');
    throw err;
  }
  return getWorkspace(ctx, id);
}

export async function updateWorkspace(ctx: Ctx, workspaceId: string, input: z.infer<typeof WorkspaceUpdateBody>) {
  const actor = requireActor(ctx);
  const current = await workspacesRepo.findForUser(ctx.db, workspaceId, memberScope(actor));
  if (!current) throw notFound('Workspace', workspaceId);
  assertWorkspaceRole(current.role as Role | null, 'admin', workspaceId);
  const settings = input.settings ? { ...current.settings, ...stripUndefined(input.settings) } : undefined;
  await workspacesRepo.update(ctx.db, workspaceId, { name: input.name, description: input.description, logoUrl: input.logoUrl, settings }, ctx.now());
  return getWorkspace(ctx, workspaceId);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function listMembers(ctx: Ctx, workspaceId: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  const rows = await workspacesRepo.listMembers(ctx.db, workspaceId);
  return rows.map(presentMember);
}

/**
 * Adds an existing account to the workspace (admin). Nobody joins a workspace without consent: the account is invited
 * (`status: "invited"`; it joins when its holder accepts), unless `directAddReason` allows adding it at once (an
 * installation admin's call, or an account of the installation's single sign-on): then `status: "added"` and the member.
 */
export async function addMember(ctx: Ctx, workspaceId: string, input: z.infer<typeof MemberAddBody>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  const user = await usersRepo.findById(ctx.db, input.userId);
  if (!user) throw notFound('User', input.userId);
  if ((await memberRole(ctx.db, workspaceId, user.id)).role) throw alreadyMember();
  const reason = await directAddReason(ctx.db, ctx, actor.userId, user);
  if (!reason) return { status: 'invited' as const, ...(await inviteAccount(ctx, workspaceId, user, input.role)) };
  await addMemberNow(ctx, workspaceId, user, input.role, reason);
  return { status: 'added' as const, member: presentMember(await memberOrThrow(ctx, workspaceId, input.userId)) };
}

const alreadyMember = () => alreadyExists('This user is already a member of the workspace', 'userId');

/**
 * Puts the account in the workspace at once, with the audit entry and the `member.joined` event, and no policy check of
 * its own: for `addMember` once it decided, and for test factories that build workspaces. `reason`: why no invitation.
 */
export async function addMemberNow(
  ctx: Pick<Ctx, 'db' | 'actor' | 'client' | 'log'>,
  workspaceId: string,
  user: { id: string; name: string },
  role: Role,
  reason?: 'install_admin' | 'sso_domain',
) {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await workspacesRepo.insertMember(trx, workspaceId, user.id, role);
      const details = { role, ...(reason ? { reason } : {}) };
      await recordAudit(trx, ctx, { workspaceId, action: 'member.added', targetType: 'user', targetId: user.id, details });
      await recordEvent(trx, ctx, {
        workspaceId,
        type: 'member.joined',
        subject: { type: 'member', id: user.id },
        data: { userId: user.id, name: user.name, role, via: 'added' },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyMember();
    throw err;
  }
  await nudgeEventDispatch(ctx);
}

async function memberOrThrow(ctx: Ctx, workspaceId: string, userId: string) {
  const member = await workspacesRepo.findMember(ctx.db, workspaceId, userId);
  if (!member) throw notFound('Member', userId);
  return member;
}

const lastAdmin = (action: string) =>
  new AppError('VALIDATION_ERROR', `Cannot ${action} the last admin of the workspace; make another member admin first`, {
    field: 'userId',
    reason: 'last_admin',
  });

export async function changeMemberRole(ctx: Ctx, workspaceId: string, userId: string, role: Role) {
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  await ctx.db.transaction().execute(async (trx) => {
    const member = await memberOrThrow({ ...ctx, db: trx }, workspaceId, userId);
    if (member.role === 'admin' && role !== 'admin' && (await workspacesRepo.lockAdminCount(trx, workspaceId)) <= 1) throw lastAdmin('demote');
    await workspacesRepo.setMemberRole(trx, workspaceId, userId, role);
    if (member.role !== role)
      await recordAudit(trx, ctx, {
        workspaceId,
        action: 'member.role_changed',
        targetType: 'user',
        targetId: userId,
        details: { from: member.role, to: role },
      });
  });
  return presentMember(await memberOrThrow(ctx, workspaceId, userId));
}

/**
 * Admins remove anyone; any member may remove themselves (leave). The last admin stays. Their space grants, group
 * memberships and the password-reset links made for them here go in the same transaction: re-added later, a member
 * starts from the role they are given.
 */
export async function removeMember(ctx: Ctx, workspaceId: string, userId: string) {
  const actor = requireActor(ctx);
  const role = await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  if (role !== 'admin' && userId !== actor.userId) throw forbidden('Only admins can remove other members', { workspaceId });
  const endedApps = await ctx.db.transaction().execute(async (trx) => {
    const member = await memberOrThrow({ ...ctx, db: trx }, workspaceId, userId);
    if (member.role === 'admin' && (await workspacesRepo.lockAdminCount(trx, workspaceId)) <= 1) throw lastAdmin('remove');
    await workspacesRepo.deleteMember(trx, workspaceId, userId);
    await spacesRepo.deleteUserGrants(trx, workspaceId, userId);
    await restrictionsRepo.deleteUserGrants(trx, workspaceId, userId);
    await groupsRepo.removeFromAllGroups(trx, workspaceId, userId);
    // A reset link made here was for a member of this workspace: it ends with the membership.
    await credentialsRepo.voidResetLinks(trx, userId, ctx.now(), workspaceId);
    const ended = await endMemberConnections(trx, ctx, workspaceId, userId);
    await recordAudit(trx, ctx, { workspaceId, action: 'member.removed', targetType: 'user', targetId: userId, details: { role: member.role } });
    await recordEvent(trx, ctx, {
      workspaceId,
      type: 'member.removed',
      subject: { type: 'member', id: userId },
      data: { userId, name: member.name, role: member.role, left: userId === actor.userId },
    });
    return ended;
  });
  forgetEndedConnections(ctx, endedApps);
  await nudgeEventDispatch(ctx);
  return { id: userId, deleted: true as const };
}
