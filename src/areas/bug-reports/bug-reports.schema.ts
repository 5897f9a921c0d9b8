import { z } from 'zod';
import { DeletedRecord, Id, LongText } from '../../schema.js';

export const BUG_SOURCES = ['auto:server', 'auto:client', 'auto:agent', 'user:command'] as const;
export const AUTO_SOURCES = ['auto:server', 'auto:client', 'auto:agent'] as const;
export const BUG_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const BUG_STATUSES = ['open', 'triaged', 'in_progress', 'resolved', 'closed'] as const;

export const BugSource = z.enum(BUG_SOURCES).describe('auto:server, auto:client, auto:agent or user:command');
export const BugSeverity = z.enum(BUG_SEVERITIES).describe('low minor, medium moderate, high major, critical system down');
export const BugStatus = z.enum(BUG_STATUSES).describe('open, triaged, in_progress, resolved, closed');

export const MAX_TITLE = 300;
export const MAX_ERROR_MESSAGE = 5_000;
export const MAX_ERROR_STACK = 50_000;
export const MAX_JSON_BYTES = 16 * 1024;

const Title = z.string().trim().min(1).max(MAX_TITLE);

/** A free-form JSON object of at most 16 KiB (serialized). */
const JsonObject = z
  .record(z.string().max(200), z.unknown())
  .refine((o) => Buffer.byteLength(JSON.stringify(o)) <= MAX_JSON_BYTES, { message: `must serialize to at most ${MAX_JSON_BYTES} bytes of JSON` });

const DateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time with a zone (Z or ±hh:mm)');
/** A date-time, or a date (the whole day in UTC: from its start, to its end). */
const DateOrDateTime = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).describe('ISO 8601 date-time, or a date (whole UTC day)');

export const BugListBody = z.object({
  source: BugSource.optional(),
  severity: BugSeverity.optional(),
  status: BugStatus.optional(),
  workspaceId: Id.optional().describe('Only this workspace (the caller must be its admin); default: every workspace the caller administers'),
  fromDate: DateOrDateTime.optional().describe('Reported at or after (createdAt)'),
  toDate: DateOrDateTime.optional().describe('Reported at or before (createdAt; a date includes the whole day)'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const BugIdBody = z.object({ bugReportId: Id });

export const BugCreateBody = z.object({
  title: Title,
  source: z.enum(['user:command']).describe('Always user:command for a user-made report'),
  description: LongText.nullable().optional(),
  severity: BugSeverity.default('medium'),
  workspaceId: Id.optional(),
  spaceId: Id.optional(),
  context: JsonObject.nullable().optional(),
});

export const BugAutoBody = z.object({
  source: z.enum(AUTO_SOURCES).describe('auto:server, auto:client or auto:agent'),
  errorMessage: z.string().max(MAX_ERROR_MESSAGE).optional(),
  errorStack: z.string().max(MAX_ERROR_STACK).optional(),
  errorCode: z.string().max(200).optional(),
  title: Title.optional().describe('Generated from the error when absent'),
  severity: BugSeverity.optional().describe('Detected from the error when absent'),
  workspaceId: Id.optional(),
  spaceId: Id.optional(),
  context: JsonObject.nullable().optional(),
  metadata: JsonObject.nullable().optional(),
  occurredAt: DateTime.optional().describe('Default now'),
});

export const BugUpdateBody = z.object({
  bugReportId: Id,
  title: Title.optional(),
  description: LongText.nullable().optional(),
  severity: BugSeverity.optional(),
  status: BugStatus.optional(),
});

export const JourneyAction = z.object({
  id: z.string().describe('Request id'),
  source: z.string().describe('api or mcp'),
  summary: z.string(),
  timestamp: z.string(),
  method: z.string(),
  route: z.string(),
  status: z.number(),
});

export const UserJourney = z.object({ recentActions: z.array(JourneyAction), sessionStartedAt: z.string().nullable() });

export const BugSummary = z.object({
  id: z.string(),
  title: z.string(),
  source: BugSource,
  severity: BugSeverity,
  status: BugStatus,
  occurrenceCount: z.number(),
  occurredAt: z.string(),
  lastOccurredAt: z.string(),
  createdAt: z.string(),
});

export const BugReport = BugSummary.extend({
  description: z.string().nullable(),
  workspaceId: z.string().nullable(),
  spaceId: z.string().nullable(),
  reporterId: z.string().nullable(),
  errorMessage: z.string().nullable(),
  errorStack: z.string().nullable(),
  errorCode: z.string().nullable(),
  userJourney: UserJourney.nullable(),
  context: z.record(z.string(), z.unknown()).nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  reporter: z.object({ id: z.string(), name: z.string(), avatarUrl: z.string().nullable() }).nullable(),
});

export const BugAutoResult = BugSummary.extend({
  deduplicated: z.boolean().describe('true when an open report absorbed this occurrence'),
});

/** `{ data, success, status }`: the bug-report envelope (`status` repeats the HTTP code). */
export const ok = <T extends z.ZodType>(data: T) => z.object({ data, success: z.literal(true), status: z.number() });

export const BugListResult = ok(
  z.object({
    items: z.array(BugSummary),
    meta: z.object({ page: z.number(), limit: z.number(), hasNextPage: z.boolean(), hasPrevPage: z.boolean() }),
  }),
);
export const BugDeleted = ok(DeletedRecord);
