import { z } from 'zod';
import { envelope, Id, ListMeta, Limit, LongText, Name, PageNumber, QueryBoolean } from '../../schema.js';

export const ProjectCreateBody = z.object({
  workspaceId: Id,
  name: Name,
  description: LongText.nullable().optional(),
  spaceId: Id.nullable().optional().describe('A space of the workspace the caller can write in; without it the project belongs to the whole workspace'),
});

export const ProjectUpdateBody = z.object({
  workspaceId: Id.optional().describe('When given, must be the project’s workspace (else 404)'),
  name: Name.optional(),
  description: LongText.nullable().optional(),
  spaceId: Id.nullable().optional(),
});

export const ProjectWorkspaceBody = z.object({ workspaceId: Id.optional().describe('When given, must be the project’s workspace (else 404)') });
export const ProjectWorkspaceQuery = ProjectWorkspaceBody;
export const ProjectParams = z.object({ projectId: Id });

export const ProjectListQuery = z.object({
  workspaceId: Id,
  spaceId: Id.optional(),
  includeArchived: QueryBoolean.optional().describe('Also list archived projects (default false)'),
  limit: Limit(50, 100),
  page: PageNumber,
});

export const Project = z.object({
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  archived: z.boolean(),
  archivedAt: z.string().nullable(),
  taskCount: z.number().describe('Tasks of the project the caller can see'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ProjectResult = envelope(Project);
export const ProjectListResult = z.object({ data: z.array(Project), meta: ListMeta });
