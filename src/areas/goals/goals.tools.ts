import { z } from 'zod';
import { DELETE, defineTool, OffsetPagedList, offsetPaged, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { WorkspaceIdParams } from '../../schema.js';
import { Goal, GoalCreateBody, GoalLinkBody, GoalLinkResult, GoalListQuery, GoalParams, GoalSuccess, GoalTaskParams, GoalUpdateBody } from './goals.schema.js';
import { createGoal, deleteGoal, getGoal, linkTask, listGoals, unlinkTask, updateGoal } from './goals.service.js';

const category = 'goal';

/** A query string carries booleans as text; a tool takes a JSON boolean. */
const IncludeTasks = z.boolean().optional().describe('Also return the linked tasks (id, title, status, priority)');

export const goalTools = [
  defineTool({
    name: 'goal_list',
    title: 'List goals',
    category,
    description:
      'List the goals of a workspace with task counts and progress (percent of linked tasks done), optionally by `spaceId` or `horizon` (short: weeks, mid: months, long: a year or more). Paged with `limit`/`offset`. Returns `{ items, total, offset, limit, hasMore }`.',
    input: WorkspaceIdParams.extend(GoalListQuery.shape).extend({ includeTasks: IncludeTasks }),
    output: OffsetPagedList(Goal),
    annotations: READ,
    handler: async (ctx, { workspaceId, ...q }) => {
      const { goals, total, limit, offset } = await listGoals(ctx, workspaceId, q);
      return offsetPaged(goals, { total, limit, offset });
    },
  }),
  defineTool({
    name: 'goal_get',
    title: 'Get a goal',
    category,
    description: 'Read a goal with its task counts and progress; `includeTasks: true` adds the linked tasks.',
    input: GoalParams.extend({ includeTasks: IncludeTasks }),
    output: Goal,
    annotations: READ,
    handler: (ctx, a) => getGoal(ctx, a.workspaceId, a.goalId, a.includeTasks ?? false),
  }),
  defineTool({
    name: 'goal_create',
    title: 'Create a goal',
    category,
    description:
      'Create a goal (editor): `title`, `horizon` (short, mid, long), optional `description`, `keywords`, `spaceId`. Link tasks with `goal_link_task`. Returns the goal with its `id`.',
    input: WorkspaceIdParams.extend(GoalCreateBody.shape),
    output: Goal,
    annotations: WRITE,
    handler: (ctx, { workspaceId, ...body }) => createGoal(ctx, workspaceId, body),
  }),
  defineTool({
    name: 'goal_update',
    title: 'Update a goal',
    category,
    description: 'Change the title, description, horizon or keywords of a goal (editor); only the given fields change. Returns the goal.',
    input: GoalParams.extend(GoalUpdateBody.shape),
    output: Goal,
    annotations: UPDATE,
    handler: (ctx, { workspaceId, goalId, ...body }) => updateGoal(ctx, workspaceId, goalId, body),
  }),
  defineTool({
    name: 'goal_delete',
    title: 'Delete a goal',
    category,
    description: 'Delete a goal; its linked tasks are kept (editor). Returns `{ success: true }`.',
    input: GoalParams,
    output: GoalSuccess,
    annotations: DELETE,
    handler: (ctx, a) => deleteGoal(ctx, a.workspaceId, a.goalId),
  }),
  defineTool({
    name: 'goal_link_task',
    title: 'Link a task to a goal',
    category,
    description: 'Link a task of the same workspace to a goal (editor); linking twice is harmless. Returns `{ success, goal: { id, taskCount } }`.',
    input: GoalParams.extend(GoalLinkBody.shape),
    output: GoalLinkResult,
    annotations: UPDATE,
    handler: (ctx, a) => linkTask(ctx, a.workspaceId, a.goalId, a.taskId),
  }),
  defineTool({
    name: 'goal_unlink_task',
    title: 'Unlink a task from a goal',
    category,
    description: 'Remove the link between a task and a goal; the task is kept (editor). Returns `{ success, goal: { id, taskCount } }`.',
    input: GoalTaskParams,
    output: GoalLinkResult,
    annotations: UPDATE,
    handler: (ctx, a) => unlinkTask(ctx, a.workspaceId, a.goalId, a.taskId),
  }),
];
