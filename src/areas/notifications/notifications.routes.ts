import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { clientOf, ctxOf, type HttpDeps } from '../../http/request-context.js';
import { type AreaRoutes, BEARER, registerVersioned } from '../../http/routes.js';
import {
  NotificationListQuery,
  NotificationListResult,
  NotificationParams,
  NotificationResult,
  PageWatchParams,
  PreferencesBody,
  PreferencesResult,
  ReadAllBody,
  ReadAllResult,
  SpaceWatchParams,
  StreamQuery,
  UnreadCountQuery,
  UnreadCountResult,
  WatchResult,
} from './notifications.schema.js';
import {
  getPreferences,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  readerOf,
  unreadCount,
  unwatch,
  updatePreferences,
  watch,
  watchStatus,
} from './notifications.service.js';
import { NotificationHub, serveStream } from './notifications.stream.js';

const tags = ['notifications'];
const security = BEARER;

const notificationsRoutes =
  (hub: NotificationHub): AreaRoutes =>
  (app, deps) => {
    app.get(
      '/notifications',
      {
        schema: {
          tags,
          security,
          summary: 'Your notifications, unread first, then newest',
          description: 'Page with `cursor` = `meta.nextCursor`. `meta.unreadCount` counts the unread ones (of `workspaceId`, when given).',
          querystring: NotificationListQuery,
          response: { 200: NotificationListResult },
        },
      },
      async (req) => listNotifications(ctxOf(req, deps), req.query),
    );
    app.get(
      '/notifications/unread-count',
      { schema: { tags, security, summary: 'How many of your notifications are unread', querystring: UnreadCountQuery, response: { 200: UnreadCountResult } } },
      async (req) => ({ data: await unreadCount(ctxOf(req, deps), req.query.workspaceId) }),
    );
    app.get(
      '/notifications/stream',
      {
        schema: {
          tags,
          security,
          summary: 'Your notifications as they happen (Server-Sent Events)',
          description:
            'A `text/event-stream`: `event: notification` (the notification JSON, its id as the event id) for each new one (after a reconnect with `Last-Event-ID`, first the unread ones made since), `event: count` (`{ count }`) at the start and whenever your unread count changes, and a `: ping` comment every 25 s. Works with the session cookie (EventSource) and bearer credentials.',
          querystring: StreamQuery,
        },
      },
      async (req, reply) => {
        const ctx = ctxOf(req, deps);
        const reader = await readerOf(ctx, req.query.workspaceId);
        const credential = req.cookieSession ?? /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
        const stillAuthorized = async () => {
          if (!credential) return false;
          try {
            return (await deps.authenticator.authenticate(credential, clientOf(req))).userId === reader.userId;
          } catch {
            return false;
          }
        };
        const lastEventId = req.headers['last-event-id'];
        reply.hijack();
        serveStream({
          hub,
          db: ctx.db,
          reader,
          response: reply.raw,
          headers: reply.getHeaders(),
          pollMs: deps.env.config.NOTIFY_STREAM_POLL_MS,
          log: req.log,
          stillAuthorized,
          lastEventId: typeof lastEventId === 'string' && lastEventId.length <= 200 ? lastEventId : undefined,
        });
      },
    );
    app.post(
      '/notifications/:notificationId/read',
      { schema: { tags, security, summary: 'Mark a notification read', params: NotificationParams, response: { 200: NotificationResult } } },
      async (req) => ({ data: await markNotificationRead(ctxOf(req, deps), req.params.notificationId) }),
    );
    app.post(
      '/notifications/read-all',
      {
        schema: { tags, security, summary: 'Mark all your notifications read (of one workspace, or all)', body: ReadAllBody, response: { 200: ReadAllResult } },
      },
      async (req) => ({ data: await markAllNotificationsRead(ctxOf(req, deps), req.body ?? {}) }),
    );
    app.get(
      '/notifications/preferences',
      { schema: { tags, security, summary: 'Which kinds notify you, in the app and by email', response: { 200: PreferencesResult } } },
      async (req) => ({ data: await getPreferences(ctxOf(req, deps)) }),
    );
    app.put(
      '/notifications/preferences',
      {
        schema: {
          tags,
          security,
          summary: 'Change which kinds notify you, in the app and by email',
          body: PreferencesBody,
          response: { 200: PreferencesResult },
        },
      },
      async (req) => ({ data: await updatePreferences(ctxOf(req, deps), req.body) }),
    );
    for (const [path, type, params] of [
      ['/pages/:pageId/watch', 'page', PageWatchParams],
      ['/spaces/:spaceId/watch', 'space', SpaceWatchParams],
    ] as const) {
      const idOf = (p: Record<string, string>) => ({ type, id: type === 'page' ? p.pageId : p.spaceId });
      const what = type === 'page' ? 'this page and its comments' : 'the pages of this space and their comments';
      app.get(path, { schema: { tags, security, summary: `Whether you watch this ${type}`, params, response: { 200: WatchResult } } }, async (req) => ({
        data: await watchStatus(ctxOf(req, deps), idOf(req.params as Record<string, string>)),
      }));
      app.put(path, { schema: { tags, security, summary: `Watch ${what} (needs read access)`, params, response: { 200: WatchResult } } }, async (req) => ({
        data: await watch(ctxOf(req, deps), idOf(req.params as Record<string, string>)),
      }));
      app.delete(path, { schema: { tags, security, summary: `Stop watching this ${type}`, params, response: { 200: WatchResult } } }, async (req) => ({
        data: await unwatch(ctxOf(req, deps), idOf(req.params as Record<string, string>)),
      }));
    }
  };

/**
 * The notifications area's routes (under /api/v1 and /api) and its live hub: one per app, fed through Redis when the
 * app has it. Open streams end when the server closes.
 */
export function registerNotifications(app: FastifyInstance, deps: HttpDeps, redis?: Redis) {
  const hub = new NotificationHub(redis, app.log);
  hub.start();
  app.decorate('notificationHub', hub);
  app.addHook('preClose', async () => hub.close());
  registerVersioned(app, deps, [notificationsRoutes(hub)]);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Live notification streams of this instance (areas/notifications). */
    notificationHub: NotificationHub;
  }
}
