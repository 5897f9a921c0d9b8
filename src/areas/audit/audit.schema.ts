import { z } from 'zod';
import { Id, Limit } from '../../schema.js';
import { AUDIT_ACTIONS, type AuditAction } from './audit.record.js';

/** `?action=a&action=b` or `?action=a,b` (or both): each must be one of AUDIT_ACTIONS. */
const Actions = z.union([z.string().max(2000), z.array(z.string().max(2000)).max(AUDIT_ACTIONS.length)]).transform((v, ctx) => {
  const parts = (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim());
  const bad = parts.find((p) => !(AUDIT_ACTIONS as readonly string[]).includes(p));
  if (bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must be one of ${AUDIT_ACTIONS.join(', ')} (got "${bad}")` });
    return z.NEVER;
  }
  return [...new Set(parts)] as AuditAction[];
});

const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();
/** A moment: an ISO 8601 date-time with its offset (`2026-05-01T12:00:00Z`), or a date (its midnight, UTC). */
const Moment = z
  .string()
  .max(64)
  .refine((s) => isoDateTime.safeParse(s).success || isoDate.safeParse(s).success, 'must be an ISO 8601 date-time with an offset, or a date (YYYY-MM-DD)')
  .transform((s) => new Date(s));

export const AuditListQuery = z.object({
  workspaceId: Id.describe('The workspace whose log to read (its admins only)'),
  action: Actions.optional().describe(`Only these actions, comma-separated or repeated: ${AUDIT_ACTIONS.join(', ')}`),
  actorId: Id.optional().describe('Only what this user did'),
  targetId: Id.optional().describe('Only entries about this target (a user, space, group, page, share, key, session, export…)'),
  since: Moment.optional().describe('Entries at or after this moment (ISO 8601)'),
  until: Moment.optional().describe('Entries before this moment (ISO 8601)'),
  cursor: z.string().max(500).optional().describe('`meta.nextCursor` of the previous answer: the next (older) entries'),
  limit: Limit(50, 200).describe('Entries per answer (1–200, default 50)'),
});

export const AuditEntry = z.object({
  id: z.string(),
  workspaceId: z.string().nullable().describe('Null for an account event: a member’s sign-in since joining'),
  action: z.enum(AUDIT_ACTIONS),
  actor: z
    .object({ id: z.string(), name: z.string(), email: z.string() })
    .nullable()
    .describe('Who acted; null when unknown (a failed sign-in for an unknown email) or since deleted'),
  target: z
    .object({
      type: z.string(),
      id: z.string().nullable(),
      name: z.string().nullable().describe('The user’s, group’s or space’s current name, when the target is one and still exists'),
    })
    .nullable()
    .describe('What the action was about; null when it was about nothing in particular'),
  details: z.record(z.string(), z.unknown()).describe('Facts of the event: roles from/to, the space or group, the email tried, the reason'),
  address: z.string().nullable().describe('The client address of the request'),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
});

export const AuditListResult = z.object({
  data: z.array(AuditEntry),
  meta: z.object({
    limit: z.number(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) entries; null at the end'),
  }),
});
