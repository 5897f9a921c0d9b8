import { z } from 'zod';
import { DELETE, defineTool, PagedList, paged, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import {
  Project,
  ProjectCreateBody,
  ProjectListQuery,
  ProjectParams,
  ProjectUpdateBody,
  ProjectWorkspaceBody,
  ProjectWorkspaceQuery,
} from './projects.schema.js';
import { createProject, deleteProject, getProject, listProjects, setProjectArchived, updateProject } from './projects.service.js';

const category = 'project';

export const projectTools = [
  defineTool({
    name: 'project_list',
    title: 'List projects',
    category,
    description:
      'List the projects of a workspace (optionally one space) with their task counts; archived ones only with `includeArchived: true`. Paged. Returns `{ items: [{ id, name, spaceId, archived, taskCount }], total, page, limit, hasMore }`.',
    // A query string carries booleans as text; a tool takes a JSON boolean.
    input: ProjectListQuery.extend({ includeArchived: z.boolean().optional().describe('Also list archived projects (default false)') }),
    output: PagedList(Project),
    annotations: READ,
    handler: async (ctx, a) => {
      const { data, meta } = await listProjects(ctx, a);
      return paged(data, meta);
    },
  }),
  defineTool({
    name: 'project_get',
    title: 'Get a project',
    category,
    description: 'Read one project with its task count.',
    input: ProjectParams.extend(ProjectWorkspaceQuery.shape),
    output: Project,
    annotations: READ,
    handler: (ctx, a) => getProject(ctx, a.projectId, a.workspaceId),
  }),
  defineTool({
    name: 'project_create',
    title: 'Create a project',
    category,
    description:
      'Create a project in a workspace, optionally in a space (editor). Put tasks in it with `task_create`/`task_update` `projectId`. Returns the project with its `id`.',
    input: ProjectCreateBody,
    output: Project,
    annotations: WRITE,
    handler: (ctx, a) => createProject(ctx, a),
  }),
  defineTool({
    name: 'project_update',
    title: 'Update a project',
    category,
    description: 'Rename a project, change its description or move it to another space (editor). Returns the project.',
    input: ProjectParams.extend(ProjectUpdateBody.shape),
    output: Project,
    annotations: UPDATE,
    handler: (ctx, { projectId, ...body }) => updateProject(ctx, projectId, body),
  }),
  defineTool({
    name: 'project_archive',
    title: 'Archive a project',
    category,
    description: 'Archive a project: hidden from lists unless asked for; its tasks stay (editor). Returns the project.',
    input: ProjectParams.extend(ProjectWorkspaceBody.shape),
    output: Project,
    annotations: UPDATE,
    handler: (ctx, a) => setProjectArchived(ctx, a.projectId, true, a.workspaceId),
  }),
  defineTool({
    name: 'project_unarchive',
    title: 'Unarchive a project',
    category,
    description: 'Bring an archived project back (editor). Returns the project.',
    input: ProjectParams.extend(ProjectWorkspaceBody.shape),
    output: Project,
    annotations: UPDATE,
    handler: (ctx, a) => setProjectArchived(ctx, a.projectId, false, a.workspaceId),
  }),
  defineTool({
    name: 'project_delete',
    title: 'Delete a project',
    category,
    description: 'Delete a project for good; its tasks are kept and lose their projectId (editor). Returns `{ id, deleted: true }`.',
    input: ProjectParams.extend(ProjectWorkspaceQuery.shape),
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => deleteProject(ctx, a.projectId, a.workspaceId),
  }),
];
