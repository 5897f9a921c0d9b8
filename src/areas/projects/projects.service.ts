import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { requireScopedRole, requireWriteTarget, visibleToActor } from '../tasks/tasks.policy.js';
import type { Role } from '../workspaces/workspaces.policy.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { presentProject } from './projects.present.js';
import { projectsRepo } from './projects.repo.js';
import type { ProjectCreateBody, ProjectListQuery, ProjectUpdateBody } from './projects.schema.js';

/** The project and the caller's right to act on it: its workspace comes from the project (a different given one is 404). */
async function projectInScope(ctx: Ctx, projectId: string, min: Role, givenWorkspaceId?: string) {
  const scope = await projectsRepo.findScope(ctx.db, projectId);
  if (!scope || (givenWorkspaceId && givenWorkspaceId !== scope.workspaceId)) throw notFound('Project', projectId);
  await requireScopedRole(ctx, scope.workspaceId, scope.spaceId, min);
  return scope;
}

async function read(ctx: Ctx, workspaceId: string, projectId: string) {
  const row = await projectsRepo.find(ctx.db, workspaceId, projectId, visibleToActor(ctx, 't.spaceId', workspaceId));
  if (!row) throw notFound('Project', projectId);
  return presentProject(row);
}

export async function createProject(ctx: Ctx, input: z.infer<typeof ProjectCreateBody>) {
  const actor = requireActor(ctx);
  await requireWriteTarget(ctx, input.workspaceId, input.spaceId);
  const id = newId();
  await projectsRepo.insert(
    ctx.db,
    {
      id,
      workspaceId: input.workspaceId,
      spaceId: input.spaceId ?? null,
      name: input.name,
      description: input.description ?? null,
      createdBy: actor.userId,
    },
    ctx.now(),
  );
  return read(ctx, input.workspaceId, id);
}

export async function listProjects(ctx: Ctx, query: z.infer<typeof ProjectListQuery>) {
  const ws = query.workspaceId;
  await requireWorkspaceRole(ctx, ws, 'viewer');
  const { rows, total } = await projectsRepo.list(
    ctx.db,
    ws,
    visibleToActor(ctx, 'p.spaceId', ws),
    visibleToActor(ctx, 't.spaceId', ws),
    { spaceId: query.spaceId, includeArchived: query.includeArchived ?? false },
    query.limit,
    (query.page - 1) * query.limit,
  );
  return { data: rows.map(presentProject), meta: { page: query.page, limit: query.limit, total } };
}

export async function getProject(ctx: Ctx, projectId: string, workspaceId?: string) {
  const scope = await projectInScope(ctx, projectId, 'viewer', workspaceId);
  return read(ctx, scope.workspaceId, projectId);
}

export async function updateProject(ctx: Ctx, projectId: string, input: z.infer<typeof ProjectUpdateBody>) {
  const scope = await projectInScope(ctx, projectId, 'editor', input.workspaceId);
  if (input.spaceId !== undefined && input.spaceId !== scope.spaceId) await requireWriteTarget(ctx, scope.workspaceId, input.spaceId);
  await projectsRepo.update(ctx.db, scope.workspaceId, projectId, { name: input.name, description: input.description, spaceId: input.spaceId }, ctx.now());
  return read(ctx, scope.workspaceId, projectId);
}

/** Archiving hides the project from lists (unless `includeArchived`) and from new task assignments; it is idempotent. */
export async function setProjectArchived(ctx: Ctx, projectId: string, archived: boolean, workspaceId?: string) {
  const scope = await projectInScope(ctx, projectId, 'editor', workspaceId);
  if (archived !== (scope.archivedAt !== null))
    await projectsRepo.update(ctx.db, scope.workspaceId, projectId, { archivedAt: archived ? ctx.now() : null }, ctx.now());
  return read(ctx, scope.workspaceId, projectId);
}

/** Deletes the project; its tasks are kept and lose their projectId. */
export async function deleteProject(ctx: Ctx, projectId: string, workspaceId?: string) {
  const scope = await projectInScope(ctx, projectId, 'editor', workspaceId);
  await projectsRepo.delete(ctx.db, scope.workspaceId, projectId);
  return { id: projectId, deleted: true as const };
}
