import type { TaskBucket, TaskPriority, TaskStatus } from '../../db/tables/tasks.js';

export interface TaskRecord {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  projectId: string | null;
  pageId: string | null;
  assigneeId: string | null;
  title: string;
  description: string | null;
  status: TaskStatus;
  priority: TaskPriority | null;
  bucket: TaskBucket | null;
  dueDate: string | null;
  completedAt: Date | null;
  labels: string[];
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaskDetailRecord extends TaskRecord {
  assigneeName: string | null;
  assigneeAvatarUrl: string | null;
  projectRefId: string | null;
  projectName: string | null;
  pageRefId: string | null;
  pageTitle: string | null;
  pageSpaceId: string | null;
}

/** The list form: references as ids. */
export function presentTask(row: TaskRecord) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    projectId: row.projectId,
    pageId: row.pageId,
    assigneeId: row.assigneeId,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    bucket: row.bucket,
    dueDate: row.dueDate,
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
    labels: row.labels,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The single-task form: the list form plus `assignee`, `project` and `page` objects. */
export function presentTaskDetail(row: TaskDetailRecord) {
  return {
    ...presentTask(row),
    assignee: row.assigneeId && row.assigneeName !== null ? { id: row.assigneeId, name: row.assigneeName, avatarUrl: row.assigneeAvatarUrl } : null,
    project: row.projectRefId && row.projectName !== null ? { id: row.projectRefId, name: row.projectName } : null,
    page: row.pageRefId && row.pageTitle !== null && row.pageSpaceId ? { id: row.pageRefId, title: row.pageTitle, spaceId: row.pageSpaceId } : null,
  };
}
