import type { Selectable } from 'kysely';
import type { GoalTable } from '../../db/tables/goals.js';
import type { TaskTable } from '../../db/tables/tasks.js';

/** A goal row with the task counts its query adds. */
export type GoalRecord = Selectable<GoalTable> & { taskCount: number; completedTaskCount: number; progress: number };

export type GoalTaskRecord = Pick<Selectable<TaskTable>, 'id' | 'title' | 'status' | 'priority'>;

/** The goal; `tasks` only when they were asked for. */
export function presentGoal(row: GoalRecord, tasks?: GoalTaskRecord[]) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    title: row.title,
    description: row.description,
    horizon: row.horizon,
    keywords: row.keywords,
    taskCount: row.taskCount,
    completedTaskCount: row.completedTaskCount,
    progress: row.progress,
    ...(tasks ? { tasks: tasks.map((t) => ({ id: t.id, title: t.title, status: t.status, priority: t.priority })) } : {}),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
