import { z } from 'zod';
import { envelope, Id, Limit, QueryBoolean } from '../../schema.js';
import { NOTIFICATION_KINDS, PREFERENCE_KINDS } from './notifications.kinds.js';

export const Notification = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS).describe('Why you are told: mention, reply (in a thread you are in), assigned, watch (a page or space you watch)'),
  workspaceId: z.string(),
  eventType: z.string().describe('The event behind it: page.updated, comment.created, task.assigned…'),
  actor: z.object({ id: z.string(), name: z.string() }).nullable().describe('Who acted; null when unknown or since deleted'),
  subject: z.object({ type: z.string(), id: z.string(), title: z.string().describe('Its title when the event happened') }),
  pageId: z.string().nullable(),
  spaceId: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});

export const NotificationListQuery = z.object({
  workspaceId: Id.optional().describe('Only this workspace’s notifications (default: all of yours)'),
  unread: QueryBoolean.optional().describe('`true`: only unread ones; `false` or absent: all, unread first'),
  cursor: z.string().max(500).optional().describe('`meta.nextCursor` of the previous answer'),
  limit: Limit(30, 100).describe('Notifications per answer (1–100, default 30)'),
});

export const NotificationListResult = z.object({
  data: z.array(Notification),
  meta: z.object({
    limit: z.number(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next notifications; null at the end'),
    unreadCount: z.number().describe('Unread notifications (of `workspaceId`, when given)'),
  }),
});

export const UnreadCountQuery = z.object({ workspaceId: Id.optional().describe('Only this workspace (default: all of yours)') });
export const UnreadCountResult = envelope(z.object({ count: z.number() }));

export const NotificationParams = z.object({ notificationId: Id });
export const NotificationResult = envelope(Notification);

export const ReadAllBody = z.object({ workspaceId: Id.optional().describe('Only this workspace’s notifications (default: all of yours)') }).default({});
export const ReadAllResult = envelope(z.object({ updated: z.number().describe('Notifications marked read') }));

const KindPreference = z.object({
  inApp: z.boolean().describe('Shown in the app (the bell, the list, the live stream)'),
  email: z.boolean().describe('Mailed in the digest (when the service has SMTP_URL)'),
});
const KindPreferenceUpdate = KindPreference.partial();

export const Preferences = z.object({
  kinds: z.object(Object.fromEntries(PREFERENCE_KINDS.map((k) => [k, KindPreference])) as Record<(typeof PREFERENCE_KINDS)[number], typeof KindPreference>),
});
export const PreferencesBody = z.object({
  kinds: z
    .object(
      Object.fromEntries(PREFERENCE_KINDS.map((k) => [k, KindPreferenceUpdate.optional()])) as Record<
        (typeof PREFERENCE_KINDS)[number],
        z.ZodOptional<typeof KindPreferenceUpdate>
      >,
    )
    .strict()
    .describe('The kinds to change; a kind or field left out keeps its value'),
});
export const PreferencesResult = envelope(Preferences);

export const StreamQuery = z.object({ workspaceId: Id.optional().describe('Only this workspace’s notifications and count (default: all of yours)') });

export const PageWatchParams = z.object({ pageId: Id });
export const SpaceWatchParams = z.object({ spaceId: Id });
export const WatchResult = envelope(z.object({ watching: z.boolean() }));
