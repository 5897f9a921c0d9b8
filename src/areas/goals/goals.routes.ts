import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { WorkspaceIdParams } from '../../schema.js';
import {
  Goal,
  GoalCreateBody,
  GoalGetQuery,
  GoalLinkBody,
  GoalLinkResult,
  GoalListQuery,
  GoalListResult,
  GoalParams,
  GoalSuccess,
  GoalTaskParams,
  GoalUpdateBody,
} from './goals.schema.js';
import { createGoal, deleteGoal, getGoal, linkTask, listGoals, unlinkTask, updateGoal } from './goals.service.js';

/** Goals carry no version and answer bare (unwrapped) bodies, as the interface shows; registered under `/api` only. */
export const goalsRoutes: AreaRoutes = (app, deps) => {
  const tags = ['goals'];
  const security = BEARER;
  const base = '/workspaces/:workspaceId/goals';
  app.get(
    base,
    {
      schema: {
        tags,
        security,
        summary: 'Goals of a workspace, newest first',
        params: WorkspaceIdParams,
        querystring: GoalListQuery,
        response: { 200: GoalListResult },
      },
    },
    async (req) => listGoals(ctxOf(req, deps), req.params.workspaceId, req.query),
  );
  app.get(
    `${base}/:goalId`,
    { schema: { tags, security, summary: 'A goal with its task counts and progress', params: GoalParams, querystring: GoalGetQuery, response: { 200: Goal } } },
    async (req) => getGoal(ctxOf(req, deps), req.params.workspaceId, req.params.goalId, req.query.includeTasks ?? false),
  );
  app.post(
    base,
    { schema: { tags, security, summary: 'Create a goal (editor)', params: WorkspaceIdParams, body: GoalCreateBody, response: { 201: Goal } } },
    async (req, reply) => reply.status(201).send(await createGoal(ctxOf(req, deps), req.params.workspaceId, req.body)),
  );
  app.patch(
    `${base}/:goalId`,
    { schema: { tags, security, summary: 'Change the given fields of a goal (editor)', params: GoalParams, body: GoalUpdateBody, response: { 200: Goal } } },
    async (req) => updateGoal(ctxOf(req, deps), req.params.workspaceId, req.params.goalId, req.body),
  );
  app.delete(
    `${base}/:goalId`,
    { schema: { tags, security, summary: 'Delete a goal; its tasks are kept (editor)', params: GoalParams, response: { 200: GoalSuccess } } },
    async (req) => deleteGoal(ctxOf(req, deps), req.params.workspaceId, req.params.goalId),
  );
  app.post(
    `${base}/:goalId/tasks`,
    {
      schema: {
        tags,
        security,
        summary: 'Link a task of the same workspace (editor; idempotent)',
        params: GoalParams,
        body: GoalLinkBody,
        response: { 200: GoalLinkResult },
      },
    },
    async (req) => linkTask(ctxOf(req, deps), req.params.workspaceId, req.params.goalId, req.body.taskId),
  );
  app.delete(
    `${base}/:goalId/tasks/:taskId`,
    { schema: { tags, security, summary: 'Unlink a task (editor)', params: GoalTaskParams, response: { 200: GoalLinkResult } } },
    async (req) => unlinkTask(ctxOf(req, deps), req.params.workspaceId, req.params.goalId, req.params.taskId),
  );
};
