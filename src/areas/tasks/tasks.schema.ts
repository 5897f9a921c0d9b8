import { z } from 'zod';
import { envelope, Id, ListMeta, LongText, Limit, PageNumber } from '../../schema.js';

export const TASK_STATUSES = ['todo', 'in_progress', 'done'] as const;
export const TASK_PRIORITIES = ['high', 'medium', 'low'] as const;
export const TASK_BUCKETS = ['now', 'next', 'later'] as const;
export const TASK_SORTS = ['dueDate', 'priority', 'createdAt', 'updatedAt'] as const;

export const TaskStatus = z.enum(TASK_STATUSES).describe('todo, in_progress or done');
export const TaskPriority = z.enum(TASK_PRIORITIES).describe('high, medium or low');
export const TaskBucket = z.enum(TASK_BUCKETS).describe('Triage bucket: now, next or later (null: untriaged)');

export const MAX_LABELS = 20;
export const MAX_LABEL_LENGTH = 50;

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true, local: true });

/**
 * A calendar date: `YYYY-MM-DD`, or a full ISO 8601 date-time whose calendar date (as written, in its own offset)
 * is kept. Invalid dates (`2025-02-30`) fail. The result is always `YYYY-MM-DD`.
 */
export const IsoDate = z
  .string()
  .max(64)
  .refine((s) => isoDate.safeParse(s).success || isoDateTime.safeParse(s).success, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time')
  .transform((s) => s.slice(0, 10));

export const Label = z.string().trim().min(1, 'must not be empty').max(MAX_LABEL_LENGTH);

/** Free-form labels: trimmed and de-duplicated case-insensitively (the first spelling wins). */
export const Labels = z
  .array(Label)
  .max(MAX_LABELS)
  .transform((labels) => {
    const seen = new Set<string>();
    return labels.filter((l) => {
      const key = l.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  })
  .describe(`Labels: free strings, trimmed, at most ${MAX_LABELS} of up to ${MAX_LABEL_LENGTH} characters; duplicates ignoring case are dropped`);

const Title = z.string().trim().min(1).max(500);
const Description = LongText.describe('Markdown');

export const TaskCreateBody = z.object({
  workspaceId: Id,
  title: Title,
  description: Description.nullable().optional(),
  status: TaskStatus.optional().describe('Default todo; done sets completedAt'),
  priority: TaskPriority.nullable().optional(),
  bucket: TaskBucket.nullable().optional(),
  assigneeId: Id.nullable().optional().describe('A member of the workspace'),
  projectId: Id.nullable().optional().describe('A project of the workspace'),
  pageId: Id.nullable().optional().describe('The page the task is about: a page of the workspace the caller can read, not in the trash'),
  spaceId: Id.nullable().optional().describe('A space of the workspace the caller can write in'),
  dueDate: IsoDate.nullable().optional().describe('ISO 8601 date (YYYY-MM-DD) or date-time; stored and returned as YYYY-MM-DD'),
  labels: Labels.optional(),
});

export const TaskUpdateBody = z.object({
  workspaceId: Id.optional().describe('When given, must be the task’s workspace (else 404)'),
  title: Title.optional(),
  description: Description.nullable().optional(),
  status: TaskStatus.optional().describe('done sets completedAt; leaving done clears it'),
  priority: TaskPriority.nullable().optional(),
  bucket: TaskBucket.nullable().optional(),
  assigneeId: Id.nullable().optional(),
  projectId: Id.nullable().optional(),
  pageId: Id.nullable().optional().describe('The page the task is about; null unlinks'),
  spaceId: Id.nullable().optional(),
  dueDate: IsoDate.nullable().optional(),
  labels: Labels.optional().describe('Replaces the task’s labels'),
});

export const TaskWorkspaceBody = z.object({ workspaceId: Id.optional().describe('When given, must be the task’s workspace (else 404)') });
export const TaskAssignBody = z.object({
  workspaceId: Id.optional().describe('When given, must be the task’s workspace (else 404)'),
  assigneeId: Id.nullable().describe('A member of the workspace; null unassigns'),
});
export const TaskWorkspaceQuery = z.object({ workspaceId: Id.optional().describe('When given, must be the task’s workspace (else 404)') });
export const TaskParams = z.object({ taskId: Id });

/** A query value given once, repeated (`?status=a&status=b`) or comma-separated (`?status=a,b`). */
const csvEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.union([z.string().max(200), z.array(z.string().max(200)).max(20)]).transform((v, ctx) => {
    const parts = (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim());
    const bad = parts.find((p) => !values.includes(p));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')} (got "${bad}")` });
      return z.NEVER;
    }
    return parts as T[number][];
  });

const QueryLabels = z.union([Label, z.array(Label).max(MAX_LABELS)]).transform((v) => (Array.isArray(v) ? v : [v]));

export const TaskListQuery = z.object({
  workspaceId: Id,
  spaceId: Id.optional(),
  projectId: Id.optional(),
  pageId: Id.optional().describe('Tasks linked to this page'),
  assigneeId: Id.optional(),
  status: csvEnum(TASK_STATUSES).optional().describe('One or more of todo, in_progress, done (comma-separated or repeated)'),
  priority: csvEnum(TASK_PRIORITIES).optional().describe('One or more of high, medium, low'),
  bucket: csvEnum([...TASK_BUCKETS, 'none'])
    .optional()
    .describe('One or more of now, next, later, none (none: no bucket)'),
  label: QueryLabels.optional().describe('Tasks carrying this label (case-insensitive); repeated: all of them'),
  dueBefore: IsoDate.optional().describe('Due on or before this date'),
  dueAfter: IsoDate.optional().describe('Due on or after this date'),
  sort: z.enum(TASK_SORTS).default('createdAt'),
  order: z.enum(['asc', 'desc']).optional().describe('Default asc for dueDate, desc otherwise; nulls always last'),
  limit: Limit(50, 100),
  page: PageNumber,
});

export const TriageQuery = z.object({
  workspaceId: Id.optional().describe('Else the x-workspace-id header, else the caller’s only workspace'),
  spaceId: Id.optional(),
});

export const LabelListQuery = z.object({ workspaceId: Id, spaceId: Id.optional() });

const taskFields = {
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string().nullable(),
  projectId: z.string().nullable(),
  pageId: z.string().nullable().describe('The page the task is about (its id, whether or not the reader may open it)'),
  assigneeId: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  status: TaskStatus,
  priority: TaskPriority.nullable(),
  bucket: TaskBucket.nullable(),
  dueDate: z.string().nullable().describe('YYYY-MM-DD'),
  completedAt: z.string().nullable(),
  labels: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const TaskListItem = z.object(taskFields);
export const TaskDetail = z.object({
  ...taskFields,
  assignee: z.object({ id: z.string(), name: z.string(), avatarUrl: z.string().nullable() }).nullable(),
  project: z.object({ id: z.string(), name: z.string() }).nullable(),
  page: z
    .object({ id: z.string(), title: z.string(), spaceId: z.string() })
    .nullable()
    .describe('The linked page, when the reader may open it and it is not in the trash; else null'),
});

export const TaskResult = envelope(TaskDetail);
export const TaskListResult = z.object({ data: z.array(TaskListItem), meta: ListMeta });
export const TriageResult = envelope(z.object({ now: z.number(), next: z.number(), later: z.number(), none: z.number() }));
export const LabelListResult = envelope(z.array(z.object({ name: z.string(), count: z.number() })));
