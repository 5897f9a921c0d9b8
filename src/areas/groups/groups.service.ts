import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError, alreadyExists, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { auditGroupMembers } from '../audit/audit.hooks.js';
import { spacesRepo } from '../spaces/spaces.repo.js';
import { type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { presentGroup, presentGroupMember } from './groups.present.js';
import { groupsRepo } from './groups.repo.js';
import type { GroupCreateBody, GroupMembersAddBody, GroupUpdateBody } from './groups.schema.js';

/** Groups live in one workspace: its members read them, its admins manage them. */

const nameTaken = (name: string) => alreadyExists(`A group named "${name}" already exists in this workspace`, 'name');

/** The group's workspace (from the group itself; a given `workspaceId` must match) and the caller's role there. */
async function accessGroup(ctx: Ctx, groupId: string, min: Role, given?: string): Promise<string> {
  const workspaceId = await groupsRepo.workspaceOf(ctx.db, groupId);
  if (!workspaceId || (given && given !== workspaceId)) throw notFound('Group', groupId);
  await requireWorkspaceRole(ctx, workspaceId, min);
  return workspaceId;
}

async function readGroup(ctx: Ctx, workspaceId: string, groupId: string) {
  const [row, members] = await Promise.all([groupsRepo.find(ctx.db, workspaceId, groupId), groupsRepo.listMembers(ctx.db, workspaceId, groupId)]);
  if (!row) throw notFound('Group', groupId);
  return { ...presentGroup(row), members: members.map(presentGroupMember) };
}

export async function listGroups(ctx: Ctx, workspaceId: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  return (await groupsRepo.list(ctx.db, workspaceId)).map(presentGroup);
}

export async function getGroup(ctx: Ctx, groupId: string, givenWorkspaceId?: string) {
  const workspaceId = await accessGroup(ctx, groupId, 'viewer', givenWorkspaceId);
  return readGroup(ctx, workspaceId, groupId);
}

export async function createGroup(ctx: Ctx, input: z.infer<typeof GroupCreateBody>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, input.workspaceId, 'admin');
  const id = newId();
  try {
    await groupsRepo.insert(ctx.db, { id, workspaceId: input.workspaceId, name: input.name, description: input.description ?? null, createdBy: actor.userId });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
  return readGroup(ctx, input.workspaceId, id);
}

export async function updateGroup(ctx: Ctx, groupId: string, input: z.infer<typeof GroupUpdateBody>) {
  const { workspaceId: given, ...patch } = input;
  const workspaceId = await accessGroup(ctx, groupId, 'admin', given);
  try {
    await groupsRepo.update(ctx.db, workspaceId, groupId, patch, ctx.now());
  } catch (err) {
    if (isUniqueViolation(err) && patch.name) throw nameTaken(patch.name);
    throw err;
  }
  return readGroup(ctx, workspaceId, groupId);
}

/** Deleting a group also removes the roles it gave in spaces. */
export async function deleteGroup(ctx: Ctx, groupId: string, givenWorkspaceId?: string) {
  const workspaceId = await accessGroup(ctx, groupId, 'admin', givenWorkspaceId);
  await groupsRepo.delete(ctx.db, workspaceId, groupId);
  return { id: groupId, deleted: true as const };
}

/** Adds workspace members to the group (those already in it stay); 422 naming the users who are not workspace members. */
export async function addGroupMembers(ctx: Ctx, groupId: string, input: z.infer<typeof GroupMembersAddBody>) {
  const workspaceId = await accessGroup(ctx, groupId, 'admin', input.workspaceId);
  const members = await spacesRepo.workspaceMemberIds(ctx.db, workspaceId, input.userIds);
  const strangers = input.userIds.filter((id) => !members.has(id));
  if (strangers.length)
    throw new AppError('VALIDATION_ERROR', 'Every user must be a member of the workspace', {
      field: 'userIds',
      reason: 'not_a_workspace_member',
      ids: strangers,
    });
  await ctx.db.transaction().execute(async (trx) => {
    const added = (await groupsRepo.addMembers(trx, workspaceId, groupId, input.userIds)).map((r) => r.userId);
    await auditGroupMembers(trx, ctx, workspaceId, groupId, 'group_member.added', added);
  });
  return readGroup(ctx, workspaceId, groupId);
}

export async function removeGroupMember(ctx: Ctx, groupId: string, userId: string, givenWorkspaceId?: string) {
  const workspaceId = await accessGroup(ctx, groupId, 'admin', givenWorkspaceId);
  const removed = await ctx.db.transaction().execute(async (trx) => {
    const count = await groupsRepo.removeMember(trx, workspaceId, groupId, userId);
    if (count) await auditGroupMembers(trx, ctx, workspaceId, groupId, 'group_member.removed', [userId]);
    return count;
  });
  if (!removed) throw notFound('Group member', userId);
  return { id: userId, deleted: true as const };
}
