import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import {
  LabelListQuery,
  LabelListResult,
  TaskAssignBody,
  TaskCreateBody,
  TaskListQuery,
  TaskListResult,
  TaskParams,
  TaskResult,
  TaskUpdateBody,
  TaskWorkspaceBody,
  TaskWorkspaceQuery,
  TriageQuery,
  TriageResult,
} from './tasks.schema.js';
import { assignTask, completeTask, createTask, deleteTask, getTask, listLabels, listTasks, triageSummary, updateTask } from './tasks.service.js';

export const tasksRoutes: AreaRoutes = (app, deps) => {
  const tags = ['tasks'];
  const security = BEARER;
  app.get(
    '/tasks',
    {
      schema: {
        tags,
        security,
        summary: 'Tasks of a workspace: filters combine; sort by dueDate, priority, createdAt or updatedAt',
        querystring: TaskListQuery,
        response: { 200: TaskListResult },
      },
    },
    async (req) => listTasks(ctxOf(req, deps), req.query),
  );
  app.get(
    '/tasks/triage-summary',
    {
      schema: {
        tags,
        security,
        summary: 'Open (not done) tasks per triage bucket; no bucket counts as none',
        querystring: TriageQuery,
        response: { 200: TriageResult },
      },
    },
    async (req) => ({ data: await triageSummary(ctxOf(req, deps), req.query) }),
  );
  app.get(
    '/tasks/:taskId',
    { schema: { tags, security, summary: 'A task (detail form)', params: TaskParams, querystring: TaskWorkspaceQuery, response: { 200: TaskResult } } },
    async (req) => ({ data: await getTask(ctxOf(req, deps), req.params.taskId, req.query.workspaceId) }),
  );
  app.post(
    '/tasks',
    { schema: { tags, security, summary: 'Create a task (editor)', body: TaskCreateBody, response: { 201: TaskResult } } },
    async (req, reply) => reply.status(201).send({ data: await createTask(ctxOf(req, deps), req.body) }),
  );
  app.put(
    '/tasks/:taskId',
    {
      schema: {
        tags,
        security,
        summary: 'Update a task; only given fields change (editor)',
        params: TaskParams,
        body: TaskUpdateBody,
        response: { 200: TaskResult },
      },
    },
    async (req) => ({ data: await updateTask(ctxOf(req, deps), req.params.taskId, req.body) }),
  );
  app.post(
    '/tasks/:taskId/complete',
    {
      schema: {
        tags,
        security,
        summary: 'Mark done and stamp completedAt (editor)',
        params: TaskParams,
        body: TaskWorkspaceBody,
        response: { 200: TaskResult },
      },
    },
    async (req) => ({ data: await completeTask(ctxOf(req, deps), req.params.taskId, req.body?.workspaceId) }),
  );
  app.post(
    '/tasks/:taskId/assign',
    {
      schema: {
        tags,
        security,
        summary: 'Assign to a workspace member, or null to unassign (editor)',
        params: TaskParams,
        body: TaskAssignBody,
        response: { 200: TaskResult },
      },
    },
    async (req) => ({ data: await assignTask(ctxOf(req, deps), req.params.taskId, req.body) }),
  );
  app.delete(
    '/tasks/:taskId',
    { schema: { tags, security, summary: 'Delete a task (editor)', params: TaskParams, querystring: TaskWorkspaceQuery, response: { 200: Deleted } } },
    async (req) => ({ data: await deleteTask(ctxOf(req, deps), req.params.taskId, req.query.workspaceId) }),
  );
  app.get(
    '/labels',
    {
      schema: {
        tags,
        security,
        summary: 'Labels in use on the workspace’s tasks, with how many tasks carry each',
        querystring: LabelListQuery,
        response: { 200: LabelListResult },
      },
    },
    async (req) => ({ data: await listLabels(ctxOf(req, deps), req.query) }),
  );
};
