import { sql } from 'kysely';
import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { type NewEvent, recordEvents } from '../events/events.record.js';
import { goalIdsOfTask, goalProgress, recordGoalProgressChanges } from '../goals/goals.events.js';
import { type TaskPatch, tasksRepo } from './tasks.repo.js';

type TaskState = { id: string; workspaceId: string; spaceId: string | null; title: string } & Record<keyof TaskPatch, unknown>;

/** The task's fields as a patch names them, row-locked for the transaction of the change. */
function lockTask(trx: Db, workspaceId: string, taskId: string) {
  return trx
    .selectFrom('tasks')
    .select([
      'id',
      'workspaceId',
      'spaceId',
      'title',
      'description',
      'status',
      'priority',
      'bucket',
      'assigneeId',
      'projectId',
      'pageId',
      sql<string | null>`to_char(due_date, 'YYYY-MM-DD')`.as('dueDate'),
    ])
    .where('workspaceId', '=', workspaceId)
    .where('id', '=', taskId)
    .forUpdate()
    .executeTakeFirst() as Promise<TaskState | undefined>;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * What a change of a task tells: `task.status_changed` (from/to) when its status moved, `task.assigned` when it got
 * an assignee (`data.assigneeId`), `task.updated` (with `data.changed`, the fields) when anything else changed,
 * unassigning and labels included. A change of nothing tells nothing.
 */
export function taskChangeEvents(before: TaskState, patch: TaskPatch, labelsChanged: boolean): NewEvent[] {
  const title = patch.title ?? before.title;
  const spaceId = patch.spaceId !== undefined ? patch.spaceId : before.spaceId;
  const base = { workspaceId: before.workspaceId, subject: { type: 'task' as const, id: before.id }, spaceId };
  const events: NewEvent[] = [];
  if (patch.status !== undefined && !same(patch.status, before.status))
    events.push({ ...base, type: 'task.status_changed', data: { title, from: before.status, to: patch.status } });
  const reassigned = patch.assigneeId !== undefined && !same(patch.assigneeId, before.assigneeId);
  if (reassigned && patch.assigneeId)
    events.push({ ...base, type: 'task.assigned', data: { title, assigneeId: patch.assigneeId, from: before.assigneeId ?? null } });
  const changed = (Object.keys(patch) as (keyof TaskPatch)[]).filter(
    (k) => k !== 'status' && k !== 'assigneeId' && patch[k] !== undefined && !same(patch[k], before[k]),
  );
  if (reassigned && !patch.assigneeId) changed.push('assigneeId');
  if (labelsChanged) (changed as string[]).push('labels');
  if (changed.length) events.push({ ...base, type: 'task.updated', data: { title, changed, assigneeId: patch.assigneeId ?? before.assigneeId ?? null } });
  return events;
}

/**
 * Changes a task in one transaction with its events: the task's own, and `goal.progress_changed` for the goals it
 * counts towards when its status moved. Returns false when there was no such task.
 */
export async function changeTask(ctx: Ctx, workspaceId: string, taskId: string, patch: TaskPatch, labels?: string[]): Promise<void> {
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockTask(trx, workspaceId, taskId);
    const progress = patch.status !== undefined ? await goalProgress(trx, workspaceId, await goalIdsOfTask(trx, workspaceId, taskId)) : new Map();
    await tasksRepo.update(trx, workspaceId, taskId, patch, ctx.now());
    let labelsChanged = false;
    if (labels) {
      const old = await trx.selectFrom('taskLabels').select('name').where('workspaceId', '=', workspaceId).where('taskId', '=', taskId).execute();
      labelsChanged =
        old
          .map((l) => l.name)
          .sort()
          .join('\n') !== [...labels].sort().join('\n');
      await tasksRepo.setLabels(trx, workspaceId, taskId, labels);
    }
    if (!before) return 0;
    const events = taskChangeEvents(before, patch, labelsChanged);
    await recordEvents(trx, ctx, events);
    return events.length + (await recordGoalProgressChanges(trx, ctx, workspaceId, progress));
  });
  if (recorded) await nudgeEventDispatch(ctx);
}

/** Deletes a task; the goals it counted towards record their new progress. */
export async function deleteTaskWithEvents(ctx: Ctx, workspaceId: string, taskId: string): Promise<void> {
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const progress = await goalProgress(trx, workspaceId, await goalIdsOfTask(trx, workspaceId, taskId));
    await tasksRepo.delete(trx, workspaceId, taskId);
    return recordGoalProgressChanges(trx, ctx, workspaceId, progress);
  });
  if (recorded) await nudgeEventDispatch(ctx);
}
