import type { GoalHorizon } from '../../db/tables/goals.js';
import type { TaskPriority, TaskStatus } from '../../db/tables/tasks.js';

export interface GoalRecord {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  title: string;
  description: string | null;
  horizon: GoalHorizon;
  keywords: string[];
  taskCount: number;
  completedTaskCount: number;
  progress: number;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface GoalTaskRecord {
  id: string;
  title: string;
  status: TaskStatus;
  priority: TaskPriority | null;
}

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
