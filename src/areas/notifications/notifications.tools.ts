import { defineTool, READ, UPDATE } from '../../mcp/tool.js';
import { Notification, NotificationListQuery, NotificationListResult, NotificationParams, PageWatchParams, WatchResult } from './notifications.schema.js';
import { listNotifications, markNotificationRead, unwatch, watch } from './notifications.service.js';

const category = 'notification';

export const notificationTools = [
  defineTool({
    name: 'notification_list',
    title: 'List your notifications',
    category,
    description:
      'Your notifications (mentions, replies in your threads, tasks assigned to you, changes to pages and spaces you watch), unread first, then newest. Filter with `workspaceId` and `unread: "true"`; page with `cursor`. Returns `{ data: [{ id, kind, eventType, actor, subject: { type, id, title }, pageId, readAt, createdAt }], meta: { hasMore, nextCursor, unreadCount } }`.',
    input: NotificationListQuery,
    output: NotificationListResult,
    annotations: READ,
    handler: (ctx, a) => listNotifications(ctx, a),
  }),
  defineTool({
    name: 'notification_mark_read',
    title: 'Mark a notification read',
    category,
    description: 'Mark one of your notifications read. Returns the notification.',
    input: NotificationParams,
    output: Notification,
    annotations: UPDATE,
    handler: (ctx, a) => markNotificationRead(ctx, a.notificationId),
  }),
  defineTool({
    name: 'page_watch',
    title: 'Watch a page',
    category,
    description: 'Be notified of changes and comments on a page you can read. Returns `{ watching: true }`.',
    input: PageWatchParams,
    output: WatchResult.shape.data,
    annotations: UPDATE,
    handler: (ctx, a) => watch(ctx, { type: 'page', id: a.pageId }),
  }),
  defineTool({
    name: 'page_unwatch',
    title: 'Stop watching a page',
    category,
    description: 'Stop being notified of changes and comments on a page. Returns `{ watching: false }`.',
    input: PageWatchParams,
    output: WatchResult.shape.data,
    annotations: UPDATE,
    handler: (ctx, a) => unwatch(ctx, { type: 'page', id: a.pageId }),
  }),
];
