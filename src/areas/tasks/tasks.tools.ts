import { DELETE, defineTool, ItemList, listOf, PagedList, paged, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import {
  LabelListQuery,
  LabelListResult,
  TaskAssignBody,
  TaskCreateBody,
  TaskDetail,
  TaskListItem,
  TaskListQuery,
  TaskParams,
  TaskUpdateBody,
  TaskWorkspaceBody,
  TaskWorkspaceQuery,
  TriageQuery,
  TriageResult,
} from './tasks.schema.js';
import { assignTask, completeTask, createTask, deleteTask, getTask, listLabels, listTasks, triageSummary, updateTask } from './tasks.service.js';

const category = 'task';

export const taskTools = [
  defineTool({
    name: 'task_list',
    title: 'List tasks',
    category,
    description:
      'List the tasks of a workspace you can see, filtered by any of `spaceId`, `projectId`, `assigneeId`, `status`, `priority`, `bucket`, `label`, `dueBefore`, `dueAfter` (status, priority and bucket take one value, a comma-separated list or an array). Sorted by `sort`/`order`; paged (`limit`, `page`). Returns `{ items: [{ id, title, status, priority, bucket, assigneeId, dueDate, labels, … }], total, page, limit, hasMore }`.',
    input: TaskListQuery,
    output: PagedList(TaskListItem),
    annotations: READ,
    handler: async (ctx, a) => {
      const { data, meta } = await listTasks(ctx, a);
      return paged(data, meta);
    },
  }),
  defineTool({
    name: 'task_get',
    title: 'Get a task',
    category,
    description: 'Read a task with its assignee, project and labels.',
    input: TaskParams.extend(TaskWorkspaceQuery.shape),
    output: TaskDetail,
    annotations: READ,
    handler: (ctx, a) => getTask(ctx, a.taskId, a.workspaceId),
  }),
  defineTool({
    name: 'task_create',
    title: 'Create a task',
    category,
    description:
      'Create a task (editor): `title`, optional Markdown `description`, `priority` (high, medium, low), `dueDate` (YYYY-MM-DD), `assigneeId`, `projectId`, `spaceId`, `labels`, triage `bucket` (now, next, later). Returns the task with its `id`.',
    input: TaskCreateBody,
    output: TaskDetail,
    annotations: WRITE,
    handler: (ctx, a) => createTask(ctx, a),
  }),
  defineTool({
    name: 'task_update',
    title: 'Update a task',
    category,
    description:
      'Change any fields of a task (editor); only the given fields change, `null` clears a field, `labels` replaces the labels. Setting `status: "done"` completes it. Returns the task.',
    input: TaskParams.extend(TaskUpdateBody.shape),
    output: TaskDetail,
    annotations: UPDATE,
    handler: (ctx, { taskId, ...body }) => updateTask(ctx, taskId, body),
  }),
  defineTool({
    name: 'task_complete',
    title: 'Complete a task',
    category,
    description: 'Mark a task done (sets completedAt) (editor). Returns the task.',
    input: TaskParams.extend(TaskWorkspaceBody.shape),
    output: TaskDetail,
    annotations: UPDATE,
    handler: (ctx, a) => completeTask(ctx, a.taskId, a.workspaceId),
  }),
  defineTool({
    name: 'task_assign',
    title: 'Assign a task',
    category,
    description: 'Assign a task to a workspace member (`assigneeId`; find ids with `user_list`), or unassign it with `null` (editor). Returns the task.',
    input: TaskParams.extend(TaskAssignBody.shape),
    output: TaskDetail,
    annotations: UPDATE,
    handler: (ctx, { taskId, ...body }) => assignTask(ctx, taskId, body),
  }),
  defineTool({
    name: 'task_delete',
    title: 'Delete a task',
    category,
    description: 'Delete a task for good, with its labels and goal links (editor). Returns `{ id, deleted: true }`.',
    input: TaskParams.extend(TaskWorkspaceQuery.shape),
    output: DeletedRecord,
    annotations: DELETE,
    handler: (ctx, a) => deleteTask(ctx, a.taskId, a.workspaceId),
  }),
  defineTool({
    name: 'task_triage_summary',
    title: 'Triage summary',
    category,
    description: 'Count the open tasks per triage bucket in a workspace (optionally one space): `{ now, next, later, none }`.',
    input: TriageQuery,
    output: TriageResult.shape.data,
    annotations: READ,
    handler: (ctx, a) => triageSummary(ctx, a),
  }),
  defineTool({
    name: 'label_list',
    title: 'List labels',
    category,
    description: 'List the task labels in use in a workspace (optionally one space) with how many tasks carry each: `{ items: [{ name, count }], total }`.',
    input: LabelListQuery,
    output: ItemList(LabelListResult.shape.data.element),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listLabels(ctx, a)),
  }),
];
