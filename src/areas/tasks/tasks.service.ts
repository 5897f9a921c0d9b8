import { type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { pageOpenToSql } from '../pages/page-access.sql.js';
import { requirePageAccess } from '../pages/pages.policy.js';
import { projectsRepo } from '../projects/projects.repo.js';
import { resolveWorkspaceId } from '../workspaces/workspace-context.js';
import { type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { changeTask, deleteTaskWithEvents } from './tasks.events.js';
import { requireScopedRole, requireWriteTarget, visibleToActor } from './tasks.policy.js';
import { presentTask, presentTaskDetail } from './tasks.present.js';
import { type TaskPatch, tasksRepo } from './tasks.repo.js';
import type { LabelListQuery, TaskAssignBody, TaskCreateBody, TaskListQuery, TaskUpdateBody, TriageQuery } from './tasks.schema.js';

/** The task and the caller's right to act on it: its workspace comes from the task (a different given one is 404). */
async function taskInScope(ctx: Ctx, taskId: string, min: Role, givenWorkspaceId?: string) {
  const scope = await tasksRepo.findScope(ctx.db, taskId);
  if (!scope || (givenWorkspaceId && givenWorkspaceId !== scope.workspaceId)) throw notFound('Task', taskId);
  await requireScopedRole(ctx, scope.workspaceId, scope.spaceId, min);
  return scope;
}

async function readDetail(ctx: Ctx, workspaceId: string, taskId: string) {
  const userId = requireActor(ctx).userId;
  const row = await tasksRepo.findDetail(
    ctx.db,
    workspaceId,
    taskId,
    (column) => visibleToActor(ctx, column, workspaceId),
    (alias) => sql<SqlBool>`(${visibleToActor(ctx, `${alias}.spaceId`, workspaceId)} and ${pageOpenToSql(sql.ref(`${alias}.id`), workspaceId, userId)})`,
  );
  if (!row) throw notFound('Task', taskId);
  return presentTaskDetail(row);
}

async function requireAssignable(ctx: Ctx, workspaceId: string, assigneeId: string | null | undefined) {
  if (assigneeId && !(await tasksRepo.isMember(ctx.db, workspaceId, assigneeId)))
    throw validation('assigneeId', 'not_member', 'assigneeId: the assignee must be a member of the workspace');
}

/** A project named by a task: of the same workspace, visible to the caller, and not archived. */
async function requireProject(ctx: Ctx, workspaceId: string, projectId: string | null | undefined) {
  if (!projectId) return;
  const project = await projectsRepo.findVisible(ctx.db, workspaceId, projectId, visibleToActor(ctx, 'p.spaceId', workspaceId));
  if (!project) throw validation('projectId', 'not_found', 'projectId: no such project in this workspace');
  if (project.archivedAt) throw validation('projectId', 'archived', 'projectId: the project is archived; unarchive it first');
}

/** A page named by a task: of the same workspace, open to the caller (space and restrictions), not in the trash. */
async function requireLinkablePage(ctx: Ctx, workspaceId: string, pageId: string | null | undefined) {
  if (!pageId) return;
  try {
    await requirePageAccess(ctx, pageId, 'viewer', { workspaceId });
  } catch (err) {
    if (err instanceof AppError && err.code === 'DELETED') throw validation('pageId', 'trashed', 'pageId: the page is in the trash; recover it first');
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw validation('pageId', 'not_found', 'pageId: no such page in this workspace');
    throw err;
  }
}

export async function createTask(ctx: Ctx, input: z.infer<typeof TaskCreateBody>) {
  const actor = requireActor(ctx);
  const ws = input.workspaceId;
  await requireWriteTarget(ctx, ws, input.spaceId);
  await requireAssignable(ctx, ws, input.assigneeId);
  await requireProject(ctx, ws, input.projectId);
  await requireLinkablePage(ctx, ws, input.pageId);
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    await tasksRepo.insert(
      trx,
      {
        id,
        workspaceId: ws,
        spaceId: input.spaceId ?? null,
        projectId: input.projectId ?? null,
        pageId: input.pageId ?? null,
        title: input.title,
        description: input.description ?? null,
        status: input.status ?? 'todo',
        priority: input.priority ?? null,
        bucket: input.bucket ?? null,
        assigneeId: input.assigneeId ?? null,
        dueDate: input.dueDate ?? null,
        createdBy: actor.userId,
      },
      ctx.now(),
    );
    if (input.labels?.length) await tasksRepo.setLabels(trx, ws, id, input.labels);
    await recordEvent(trx, ctx, {
      workspaceId: ws,
      type: 'task.created',
      subject: { type: 'task', id },
      spaceId: input.spaceId ?? null,
      data: { title: input.title, status: input.status ?? 'todo', assigneeId: input.assigneeId ?? null },
    });
  });
  await nudgeEventDispatch(ctx);
  return readDetail(ctx, ws, id);
}

export async function getTask(ctx: Ctx, taskId: string, workspaceId?: string) {
  const scope = await taskInScope(ctx, taskId, 'viewer', workspaceId);
  return readDetail(ctx, scope.workspaceId, taskId);
}

export async function listTasks(ctx: Ctx, q: z.infer<typeof TaskListQuery>) {
  const ws = q.workspaceId;
  await requireWorkspaceRole(ctx, ws, 'viewer');
  const order = q.order ?? (q.sort === 'dueDate' ? 'asc' : 'desc');
  const { rows, total } = await tasksRepo.list(
    ctx.db,
    ws,
    visibleToActor(ctx, 't.spaceId', ws),
    {
      spaceId: q.spaceId,
      projectId: q.projectId,
      pageId: q.pageId,
      assigneeId: q.assigneeId,
      status: q.status,
      priority: q.priority,
      bucket: q.bucket,
      labels: q.label,
      dueBefore: q.dueBefore,
      dueAfter: q.dueAfter,
    },
    q.sort,
    order,
    q.limit,
    (q.page - 1) * q.limit,
  );
  return { data: rows.map(presentTask), meta: { page: q.page, limit: q.limit, total } };
}

export async function updateTask(ctx: Ctx, taskId: string, input: z.infer<typeof TaskUpdateBody>) {
  const scope = await taskInScope(ctx, taskId, 'editor', input.workspaceId);
  const ws = scope.workspaceId;
  if (input.spaceId !== undefined && input.spaceId !== scope.spaceId) await requireWriteTarget(ctx, ws, input.spaceId);
  await requireAssignable(ctx, ws, input.assigneeId);
  if (input.projectId !== scope.projectId) await requireProject(ctx, ws, input.projectId);
  if (input.pageId !== scope.pageId) await requireLinkablePage(ctx, ws, input.pageId);
  const patch: TaskPatch = {
    title: input.title,
    description: input.description,
    status: input.status,
    priority: input.priority,
    bucket: input.bucket,
    assigneeId: input.assigneeId,
    projectId: input.projectId,
    pageId: input.pageId,
    spaceId: input.spaceId,
    dueDate: input.dueDate,
  };
  await changeTask(ctx, ws, taskId, patch, input.labels);
  return readDetail(ctx, ws, taskId);
}

/** Sets status done and stamps completedAt (kept when the task was already done). */
export async function completeTask(ctx: Ctx, taskId: string, workspaceId?: string) {
  const scope = await taskInScope(ctx, taskId, 'editor', workspaceId);
  await changeTask(ctx, scope.workspaceId, taskId, { status: 'done' });
  return readDetail(ctx, scope.workspaceId, taskId);
}

export async function assignTask(ctx: Ctx, taskId: string, input: z.infer<typeof TaskAssignBody>) {
  const scope = await taskInScope(ctx, taskId, 'editor', input.workspaceId);
  await requireAssignable(ctx, scope.workspaceId, input.assigneeId);
  await changeTask(ctx, scope.workspaceId, taskId, { assigneeId: input.assigneeId });
  return readDetail(ctx, scope.workspaceId, taskId);
}

/** Deletes the task with its labels and goal links. */
export async function deleteTask(ctx: Ctx, taskId: string, workspaceId?: string) {
  const scope = await taskInScope(ctx, taskId, 'editor', workspaceId);
  await deleteTaskWithEvents(ctx, scope.workspaceId, taskId);
  return { id: taskId, deleted: true as const };
}

/** Open tasks per triage bucket in the workspace of the request's context, optionally in one space. */
export async function triageSummary(ctx: Ctx, q: z.infer<typeof TriageQuery>) {
  const ws = await resolveWorkspaceId(ctx, q.workspaceId);
  await requireWorkspaceRole(ctx, ws, 'viewer');
  return tasksRepo.triageCounts(ctx.db, ws, visibleToActor(ctx, 't.spaceId', ws), q.spaceId);
}

export async function listLabels(ctx: Ctx, q: z.infer<typeof LabelListQuery>) {
  await requireWorkspaceRole(ctx, q.workspaceId, 'viewer');
  return tasksRepo.labelCounts(ctx.db, q.workspaceId, visibleToActor(ctx, 't.spaceId', q.workspaceId), q.spaceId);
}
