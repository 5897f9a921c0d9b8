import type { ColumnType, GeneratedAlways } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../types.js';

export type TaskStatus = 'todo' | 'in_progress' | 'done';
export type TaskPriority = 'high' | 'medium' | 'low';
export type TaskBucket = 'now' | 'next' | 'later';

export interface ProjectTable {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  name: string;
  description: string | null;
  archivedAt: Date | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface TaskTable {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  projectId: string | null;
  /** The page the task is about (of the same workspace), or none. */
  pageId: string | null;
  title: string;
  /** Markdown. */
  description: string | null;
  status: TaskStatus;
  priority: TaskPriority | null;
  bucket: TaskBucket | null;
  assigneeId: string | null;
  /** A `date` column: written as `YYYY-MM-DD`, read through `to_char` (pg would turn it into a local-midnight Date). */
  dueDate: ColumnType<string | null, string | null | undefined, string | null>;
  completedAt: Date | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface TaskLabelTable {
  workspaceId: string;
  taskId: string;
  /** As first written (trimmed). */
  name: string;
  /** lower(name): one label per task case-insensitively. */
  key: GeneratedAlways<string>;
}

export interface TasksTables {
  projects: ProjectTable;
  tasks: TaskTable;
  taskLabels: TaskLabelTable;
}
