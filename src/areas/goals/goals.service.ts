import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { requireScopedRole, requireWriteTarget, visibleToActor } from '../tasks/tasks.policy.js';
import { tasksRepo } from '../tasks/tasks.repo.js';
import { type Role, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { withGoalProgressEvents } from './goals.events.js';
import { type GoalTaskRecord, presentGoal } from './goals.present.js';
import { goalsRepo } from './goals.repo.js';
import type { GoalCreateBody, GoalListQuery, GoalUpdateBody } from './goals.schema.js';

/** The caller may act on this goal of this workspace: 404 for an unknown workspace or goal (or one in a space they cannot see), 403 for outsiders or a low role. */
async function goalInScope(ctx: Ctx, workspaceId: string, goalId: string, min: Role) {
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  const scope = await goalsRepo.findScope(ctx.db, workspaceId, goalId);
  if (!scope) throw notFound('Goal', goalId);
  await requireScopedRole(ctx, workspaceId, scope.spaceId, min);
  return scope;
}

async function read(ctx: Ctx, workspaceId: string, goalId: string, includeTasks: boolean) {
  const tasksVisible = visibleToActor(ctx, 't.spaceId', workspaceId);
  const row = await goalsRepo.find(ctx.db, workspaceId, goalId, tasksVisible);
  if (!row) throw notFound('Goal', goalId);
  const tasks = includeTasks ? await goalsRepo.tasksOf(ctx.db, workspaceId, [goalId], tasksVisible) : undefined;
  return presentGoal(row, tasks);
}

export async function listGoals(ctx: Ctx, workspaceId: string, q: z.infer<typeof GoalListQuery>) {
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  const tasksVisible = visibleToActor(ctx, 't.spaceId', workspaceId);
  const { rows, total } = await goalsRepo.list(
    ctx.db,
    workspaceId,
    visibleToActor(ctx, 'g.spaceId', workspaceId),
    tasksVisible,
    { spaceId: q.spaceId, horizon: q.horizon },
    q.limit,
    q.offset,
  );
  let tasksByGoal: Map<string, GoalTaskRecord[]> | undefined;
  if (q.includeTasks) {
    tasksByGoal = new Map(rows.map((r) => [r.id, []]));
    for (const t of await goalsRepo.tasksOf(
      ctx.db,
      workspaceId,
      rows.map((r) => r.id),
      tasksVisible,
    ))
      tasksByGoal.get(t.goalId)?.push(t);
  }
  return { goals: rows.map((r) => presentGoal(r, tasksByGoal?.get(r.id))), total, limit: q.limit, offset: q.offset };
}

export async function getGoal(ctx: Ctx, workspaceId: string, goalId: string, includeTasks = false) {
  await goalInScope(ctx, workspaceId, goalId, 'viewer');
  return read(ctx, workspaceId, goalId, includeTasks);
}

export async function createGoal(ctx: Ctx, workspaceId: string, input: z.infer<typeof GoalCreateBody>) {
  const actor = requireActor(ctx);
  await requireWriteTarget(ctx, workspaceId, input.spaceId);
  const id = newId();
  await goalsRepo.insert(
    ctx.db,
    {
      id,
      workspaceId,
      spaceId: input.spaceId ?? null,
      title: input.title,
      description: input.description ?? null,
      horizon: input.horizon,
      keywords: input.keywords ?? [],
      createdBy: actor.userId,
    },
    ctx.now(),
  );
  return read(ctx, workspaceId, id, false);
}

export async function updateGoal(ctx: Ctx, workspaceId: string, goalId: string, input: z.infer<typeof GoalUpdateBody>) {
  await goalInScope(ctx, workspaceId, goalId, 'editor');
  await goalsRepo.update(ctx.db, workspaceId, goalId, input, ctx.now());
  return read(ctx, workspaceId, goalId, false);
}

/** Deletes the goal; its tasks are kept. */
export async function deleteGoal(ctx: Ctx, workspaceId: string, goalId: string) {
  await goalInScope(ctx, workspaceId, goalId, 'editor');
  await goalsRepo.delete(ctx.db, workspaceId, goalId);
  return { success: true as const };
}

/** A task of this workspace the caller can see, or null (another workspace's, unknown, or in a space hidden from them). */
async function visibleTask(ctx: Ctx, workspaceId: string, taskId: string) {
  const task = await tasksRepo.findScope(ctx.db, taskId);
  if (!task || task.workspaceId !== workspaceId) return null;
  if (task.spaceId) {
    try {
      await requireSpaceRole(ctx, workspaceId, task.spaceId, 'viewer');
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }
  return task;
}

/** Links a task of the same workspace (else 422); linking twice is harmless. */
export async function linkTask(ctx: Ctx, workspaceId: string, goalId: string, taskId: string) {
  await goalInScope(ctx, workspaceId, goalId, 'editor');
  if (!(await visibleTask(ctx, workspaceId, taskId))) throw validation('taskId', 'not_found', 'taskId: no such task in this workspace');
  await withGoalProgressEvents(ctx, workspaceId, [goalId], (trx) => goalsRepo.link(trx, workspaceId, goalId, taskId, ctx.now()));
  return {
    success: true as const,
    goal: { id: goalId, taskCount: await goalsRepo.taskCount(ctx.db, workspaceId, goalId, visibleToActor(ctx, 't.spaceId', workspaceId)) },
  };
}

/** Unlinks a task; unlinking a task that is not linked is harmless, an unknown task is 404. */
export async function unlinkTask(ctx: Ctx, workspaceId: string, goalId: string, taskId: string) {
  await goalInScope(ctx, workspaceId, goalId, 'editor');
  if (!(await visibleTask(ctx, workspaceId, taskId))) throw notFound('Task', taskId);
  await withGoalProgressEvents(ctx, workspaceId, [goalId], (trx) => goalsRepo.unlink(trx, workspaceId, goalId, taskId));
  return {
    success: true as const,
    goal: { id: goalId, taskCount: await goalsRepo.taskCount(ctx.db, workspaceId, goalId, visibleToActor(ctx, 't.spaceId', workspaceId)) },
  };
}
