import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import {
  ProjectCreateBody,
  ProjectListQuery,
  ProjectListResult,
  ProjectParams,
  ProjectResult,
  ProjectUpdateBody,
  ProjectWorkspaceBody,
  ProjectWorkspaceQuery,
} from './projects.schema.js';
import { createProject, deleteProject, getProject, listProjects, setProjectArchived, updateProject } from './projects.service.js';

export const projectsRoutes: AreaRoutes = (app, deps) => {
  const tags = ['projects'];
  const security = BEARER;
  app.get(
    '/projects',
    {
      schema: {
        tags,
        security,
        summary: 'Projects of a workspace (archived ones with includeArchived)',
        querystring: ProjectListQuery,
        response: { 200: ProjectListResult },
      },
    },
    async (req) => listProjects(ctxOf(req, deps), req.query),
  );
  app.post(
    '/projects',
    { schema: { tags, security, summary: 'Create a project (editor)', body: ProjectCreateBody, response: { 201: ProjectResult } } },
    async (req, reply) => reply.status(201).send({ data: await createProject(ctxOf(req, deps), req.body) }),
  );
  app.get(
    '/projects/:projectId',
    { schema: { tags, security, summary: 'A project', params: ProjectParams, querystring: ProjectWorkspaceQuery, response: { 200: ProjectResult } } },
    async (req) => ({ data: await getProject(ctxOf(req, deps), req.params.projectId, req.query.workspaceId) }),
  );
  app.put(
    '/projects/:projectId',
    {
      schema: {
        tags,
        security,
        summary: 'Update name, description or space (editor)',
        params: ProjectParams,
        body: ProjectUpdateBody,
        response: { 200: ProjectResult },
      },
    },
    async (req) => ({ data: await updateProject(ctxOf(req, deps), req.params.projectId, req.body) }),
  );
  app.post(
    '/projects/:projectId/archive',
    {
      schema: {
        tags,
        security,
        summary: 'Archive a project (editor; idempotent)',
        params: ProjectParams,
        body: ProjectWorkspaceBody,
        response: { 200: ProjectResult },
      },
    },
    async (req) => ({ data: await setProjectArchived(ctxOf(req, deps), req.params.projectId, true, req.body?.workspaceId) }),
  );
  app.post(
    '/projects/:projectId/unarchive',
    {
      schema: {
        tags,
        security,
        summary: 'Unarchive a project (editor; idempotent)',
        params: ProjectParams,
        body: ProjectWorkspaceBody,
        response: { 200: ProjectResult },
      },
    },
    async (req) => ({ data: await setProjectArchived(ctxOf(req, deps), req.params.projectId, false, req.body?.workspaceId) }),
  );
  app.delete(
    '/projects/:projectId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a project; its tasks are kept without a project (editor)',
        params: ProjectParams,
        querystring: ProjectWorkspaceQuery,
        response: { 200: Deleted },
      },
    },
    async (req) => ({ data: await deleteProject(ctxOf(req, deps), req.params.projectId, req.query.workspaceId) }),
  );
};
