import type { Selectable } from 'kysely';
import type { ProjectTable } from '../../db/tables/tasks.js';

/** A project row with the task count its query adds. */
export type ProjectRecord = Selectable<ProjectTable> & { taskCount: number };

export function presentProject(row: ProjectRecord) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    name: row.name,
    description: row.description,
    archived: row.archivedAt !== null,
    archivedAt: row.archivedAt ? row.archivedAt.toISOString() : null,
    taskCount: row.taskCount,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
