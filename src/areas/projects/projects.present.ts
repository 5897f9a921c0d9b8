export interface ProjectRecord {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  name: string;
  description: string | null;
  archivedAt: Date | null;
  taskCount: number;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

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
