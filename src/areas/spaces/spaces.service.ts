import type { z } from 'zod';
import { deleteBlobs } from '../../blobs/index.js';
import { type Ctx, requireActor } from '../../context.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError, alreadyExists, missingRequired, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { attachmentsRepo } from '../attachments/attachments.repo.js';
import { auditSpaceGrantRemoved, auditSpaceGrants } from '../audit/audit.hooks.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { requireSpaceRole } from './spaces.policy.js';
import { presentPermission, presentSpace, presentSpaceMembers } from './spaces.present.js';
import { spacesRepo } from './spaces.repo.js';
import type { SpaceCreateBody, SpaceMembersAddBody, SpacePermissionBody, SpaceUpdateBody } from './spaces.schema.js';

/** A URL slug from a name: ASCII letters and digits joined by hyphens ("Équipe Produit" → "equipe-produit"). */
export function slugify(name: string, fallback = 'space'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}

/** `base`, else `base-2`, `base-3`, … whichever is free first. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function listSpaces(ctx: Ctx, workspaceId: string) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  const rows = await spacesRepo.listReadable(ctx.db, workspaceId, actor.userId);
  return rows.map((r) => presentSpace(r));
}

export async function getSpace(ctx: Ctx, workspaceId: string, spaceId: string) {
  await requireSpaceRole(ctx, workspaceId, spaceId, 'viewer');
  const row = await spacesRepo.findWithCounts(ctx.db, workspaceId, spaceId, requireActor(ctx).userId);
  if (!row) throw notFound('Space', spaceId);
  return presentSpace(row);
}

/** Workspace admins create spaces; the creator also becomes the space's admin, so it is listed among its members. */
export async function createSpace(ctx: Ctx, input: z.infer<typeof SpaceCreateBody>) {
  const actor = requireActor(ctx);
  const { workspaceId } = input;
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  const id = newId();
  const base = slugify(input.name);
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? firstFreeSlug(base, await spacesRepo.slugsLike(ctx.db, workspaceId, base));
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await spacesRepo.insert(trx, {
          id,
          workspaceId,
          name: input.name,
          slug,
          description: input.description ?? null,
          icon: input.icon ?? null,
          visibility: input.visibility,
          createdBy: actor.userId,
        });
        await spacesRepo.upsertGrants(trx, [
          { id: newId(), spaceId: id, workspaceId, userId: actor.userId, groupId: null, role: 'admin', addedBy: actor.userId },
        ]);
      });
      break;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.slug) throw alreadyExists(`A space with slug "${input.slug}" already exists in this workspace`, 'slug');
      // Another request took the generated slug between our read and insert: pick again.
      if (attempt >= 4) throw err;
    }
  }
  return getSpace(ctx, workspaceId, id);
}

export async function updateSpace(ctx: Ctx, spaceId: string, input: z.infer<typeof SpaceUpdateBody>) {
  const { workspaceId, ...patch } = input;
  await requireSpaceRole(ctx, workspaceId, spaceId, 'admin');
  await spacesRepo.update(ctx.db, workspaceId, spaceId, patch, ctx.now());
  return getSpace(ctx, workspaceId, spaceId);
}

/**
 * Deletes the space with its pages, their history, comments and attachments (FK cascades, one transaction);
 * attachment blobs are removed after the commit.
 */
export async function deleteSpace(ctx: Ctx, workspaceId: string, spaceId: string) {
  await requireSpaceRole(ctx, workspaceId, spaceId, 'admin');
  const blobKeys = await ctx.db.transaction().execute(async (trx) => {
    const keys = await attachmentsRepo.blobKeysInSpace(trx, workspaceId, spaceId);
    await spacesRepo.delete(trx, workspaceId, spaceId);
    return keys;
  });
  await deleteBlobs(ctx.env.blobs, blobKeys, ctx.log);
  return { id: spaceId, deleted: true as const };
}

/** The workspace of a space named only by its id (routes without `workspaceId`): 404 for an unknown space or a mismatch. */
async function workspaceOfSpace(ctx: Ctx, spaceId: string, given?: string): Promise<string> {
  const workspaceId = await spacesRepo.workspaceOf(ctx.db, spaceId);
  if (!workspaceId || (given && given !== workspaceId)) throw notFound('Space', spaceId);
  return workspaceId;
}

export async function listSpaceMembers(ctx: Ctx, spaceId: string, givenWorkspaceId?: string) {
  const workspaceId = await workspaceOfSpace(ctx, spaceId, givenWorkspaceId);
  await requireSpaceRole(ctx, workspaceId, spaceId, 'viewer');
  return presentSpaceMembers(await spacesRepo.listMemberGrants(ctx.db, workspaceId, spaceId));
}

export async function listSpacePermissions(ctx: Ctx, spaceId: string, givenWorkspaceId?: string) {
  const workspaceId = await workspaceOfSpace(ctx, spaceId, givenWorkspaceId);
  await requireSpaceRole(ctx, workspaceId, spaceId, 'viewer');
  return (await spacesRepo.listPermissions(ctx.db, workspaceId, spaceId)).map(presentPermission);
}

const notAllowed = (field: string, reason: string, ids: string[], message: string) => new AppError('VALIDATION_ERROR', message, { field, reason, ids });

async function checkTargets(ctx: Ctx, workspaceId: string, userIds: string[], groupIds: string[]) {
  const members = await spacesRepo.workspaceMemberIds(ctx.db, workspaceId, userIds);
  const strangers = userIds.filter((id) => !members.has(id));
  if (strangers.length) throw notAllowed('userIds', 'not_a_workspace_member', strangers, 'Every user must be a member of the workspace');
  const groups = await spacesRepo.workspaceGroupIds(ctx.db, workspaceId, groupIds);
  const unknown = groupIds.filter((id) => !groups.has(id));
  if (unknown.length) throw notAllowed('groupIds', 'not_a_workspace_group', unknown, 'Every group must be a group of the same workspace');
}

/** Adds users and groups with a role; one already there gets the new role. Returns the member list. */
export async function addSpaceMembers(ctx: Ctx, spaceId: string, input: z.infer<typeof SpaceMembersAddBody>) {
  const actor = requireActor(ctx);
  const { workspaceId, role } = input;
  const userIds = input.userIds ?? [];
  const groupIds = input.groupIds ?? [];
  if (!userIds.length && !groupIds.length) throw missingRequired('userIds', 'Name at least one user in userIds or one group in groupIds');
  const { space } = await requireSpaceRole(ctx, workspaceId, spaceId, 'admin');
  await checkTargets(ctx, workspaceId, userIds, groupIds);
  const grant = (userId: string | null, groupId: string | null) => ({ id: newId(), spaceId, workspaceId, userId, groupId, role, addedBy: actor.userId });
  const grants = [...userIds.map((u) => grant(u, null)), ...groupIds.map((g) => grant(null, g))];
  await ctx.db.transaction().execute(async (trx) => {
    const before = await spacesRepo.listPermissions(trx, workspaceId, spaceId);
    await spacesRepo.upsertGrants(trx, grants);
    await auditSpaceGrants(trx, ctx, space, before, grants);
  });
  return presentSpaceMembers(await spacesRepo.listMemberGrants(ctx.db, workspaceId, spaceId));
}

/** Sets (or adds) the role of one user or group in the space. */
export async function setSpacePermission(ctx: Ctx, spaceId: string, input: z.infer<typeof SpacePermissionBody>) {
  const actor = requireActor(ctx);
  const { workspaceId, targetId, role, isGroup } = input;
  const { space } = await requireSpaceRole(ctx, workspaceId, spaceId, 'admin');
  if (isGroup) {
    if (!(await spacesRepo.workspaceGroupIds(ctx.db, workspaceId, [targetId])).has(targetId))
      throw notAllowed('targetId', 'not_a_workspace_group', [targetId], 'targetId must be a group of the same workspace');
  } else if (!(await spacesRepo.workspaceMemberIds(ctx.db, workspaceId, [targetId])).has(targetId))
    throw notAllowed('targetId', 'not_a_workspace_member', [targetId], 'targetId must be a member of the workspace');
  const grant = { id: newId(), spaceId, workspaceId, userId: isGroup ? null : targetId, groupId: isGroup ? targetId : null, role, addedBy: actor.userId };
  await ctx.db.transaction().execute(async (trx) => {
    const before = await spacesRepo.listPermissions(trx, workspaceId, spaceId);
    await spacesRepo.upsertGrants(trx, [grant]);
    await auditSpaceGrants(trx, ctx, space, before, [grant]);
  });
  const rows = await spacesRepo.listPermissions(ctx.db, workspaceId, spaceId);
  const row = rows.find((r) => (isGroup ? r.groupId : r.userId) === targetId);
  if (!row) throw notFound('Permission', targetId);
  return presentPermission(row);
}

/** Removes the direct role of a user (or a group) in the space; roles through groups stay. */
export async function removeSpaceMember(ctx: Ctx, spaceId: string, targetId: string, givenWorkspaceId?: string) {
  const workspaceId = await workspaceOfSpace(ctx, spaceId, givenWorkspaceId);
  const { space } = await requireSpaceRole(ctx, workspaceId, spaceId, 'admin');
  const removed = await ctx.db.transaction().execute(async (trx) => {
    const grant = (await spacesRepo.listPermissions(trx, workspaceId, spaceId)).find((g) => g.userId === targetId || g.groupId === targetId);
    const count = await spacesRepo.deleteGrant(trx, workspaceId, spaceId, targetId);
    if (count && grant) await auditSpaceGrantRemoved(trx, ctx, space, grant);
    return count;
  });
  if (!removed) throw notFound('Space member', targetId);
  return { id: targetId, deleted: true as const };
}
