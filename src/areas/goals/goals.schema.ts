import { z } from 'zod';
import { Id, LongText, QueryBoolean } from '../../schema.js';
import { TaskPriority, TaskStatus } from '../tasks/tasks.schema.js';

export const GOAL_HORIZONS = ['short', 'mid', 'long'] as const;
export const GoalHorizon = z.enum(GOAL_HORIZONS).describe('short (weeks), mid (months or a quarter), long (a year or more)');

export const MAX_KEYWORDS = 50;

/** Keywords: trimmed, non-empty, de-duplicated ignoring case (the first spelling wins). */
export const Keywords = z
  .array(z.string().trim().min(1, 'must not be empty').max(100))
  .max(MAX_KEYWORDS)
  .transform((words) => {
    const seen = new Set<string>();
    return words.filter((w) => !seen.has(w.toLowerCase()) && seen.add(w.toLowerCase()));
  })
  .describe(`Up to ${MAX_KEYWORDS} keywords of up to 100 characters`);

const Title = z.string().trim().min(1).max(500);

export const GoalParams = z.object({ workspaceId: Id, goalId: Id });
export const GoalTaskParams = z.object({ workspaceId: Id, goalId: Id, taskId: Id });

export const GoalCreateBody = z.object({
  title: Title,
  horizon: GoalHorizon,
  description: LongText.nullable().optional(),
  keywords: Keywords.optional(),
  spaceId: Id.nullable().optional().describe('A space of the workspace the caller can write in'),
});

export const GoalUpdateBody = z.object({
  title: Title.optional(),
  description: LongText.nullable().optional(),
  horizon: GoalHorizon.optional(),
  keywords: Keywords.optional(),
});

export const GoalLinkBody = z.object({ taskId: Id.describe('A task of the same workspace') });

export const GoalListQuery = z.object({
  spaceId: Id.optional(),
  horizon: GoalHorizon.optional(),
  includeTasks: QueryBoolean.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const GoalGetQuery = z.object({ includeTasks: QueryBoolean.optional() });

export const GoalTask = z.object({ id: z.string(), title: z.string(), status: TaskStatus, priority: TaskPriority.nullable() });

export const Goal = z.object({
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  horizon: GoalHorizon,
  keywords: z.array(z.string()),
  taskCount: z.number(),
  completedTaskCount: z.number(),
  progress: z.number().describe('completedTaskCount / taskCount × 100, rounded to 2 decimals; 0 without tasks'),
  tasks: z.array(GoalTask).optional().describe('Only with includeTasks=true'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const GoalListResult = z.object({ goals: z.array(Goal), total: z.number(), limit: z.number(), offset: z.number() });
export const GoalSuccess = z.object({ success: z.literal(true) });
export const GoalLinkResult = z.object({ success: z.literal(true), goal: z.object({ id: z.string(), taskCount: z.number() }) });
