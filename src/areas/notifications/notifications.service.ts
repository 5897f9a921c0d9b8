import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, invalidParameter, notFound } from '../../errors.js';
import { requirePageAccess } from '../pages/pages.policy.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import type { KindPreference, PreferenceKind } from './notifications.kinds.js';
import { decodeListCursor, encodeListCursor, presentNotification } from './notifications.present.js';
import { notificationsRepo, type Reader } from './notifications.repo.js';
import type { NotificationListQuery, PreferencesBody } from './notifications.schema.js';
import { publishCountChanged } from './notifications.stream.js';

/**
 * A person's own notifications: nobody reads or marks another's. Every read filters, inside its SQL, to what the
 * person may still read (member of the workspace, the space readable, the page open to them) and to their API key's
 * workspace. Naming a workspace they are not in is a 404/403 like every workspace-scoped read.
 */

/** The reader of the caller's notifications, after checking the workspace they name. */
export async function readerOf(ctx: Ctx, workspaceId?: string): Promise<Reader> {
  const actor = requireActor(ctx);
  if (workspaceId) await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  return { userId: actor.userId, keyWorkspaceId: actor.workspaceId ?? null, workspaceId };
}

export async function listNotifications(ctx: Ctx, query: z.output<typeof NotificationListQuery>) {
  const reader = await readerOf(ctx, query.workspaceId);
  const after = query.cursor ? decodeListCursor(query.cursor) : null;
  if (query.cursor && !after) throw invalidParameter('cursor', 'is not a cursor this service gave out');
  const rows = await notificationsRepo.list(ctx.db, reader, { unreadOnly: query.unread === true, after }, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const hasMore = rows.length > query.limit;
  return {
    data: page.map(presentNotification),
    meta: {
      limit: query.limit,
      hasMore,
      nextCursor: hasMore && last ? encodeListCursor({ unread: last.unread ? 1 : 0, id: last.id }) : null,
      unreadCount: await notificationsRepo.unreadCount(ctx.db, reader),
    },
  };
}

export async function unreadCount(ctx: Ctx, workspaceId?: string) {
  return { count: await notificationsRepo.unreadCount(ctx.db, await readerOf(ctx, workspaceId)) };
}

/** Marks one read (again: a no-op); 404 for someone else's, or one about what the caller can no longer read. */
export async function markNotificationRead(ctx: Ctx, notificationId: string) {
  const reader = await readerOf(ctx);
  await notificationsRepo.markRead(ctx.db, reader, notificationId, ctx.now());
  const row = await notificationsRepo.find(ctx.db, reader, notificationId);
  if (!row) throw notFound('Notification', notificationId);
  publishCountChanged(reader.userId);
  return presentNotification(row);
}

export async function markAllNotificationsRead(ctx: Ctx, input: { workspaceId?: string }) {
  const reader = await readerOf(ctx, input.workspaceId);
  const updated = await notificationsRepo.markAllRead(ctx.db, reader, ctx.now());
  if (updated) publishCountChanged(reader.userId);
  return { updated };
}

export async function getPreferences(ctx: Ctx) {
  return { kinds: await notificationsRepo.preferences(ctx.db, requireActor(ctx).userId) };
}

export async function updatePreferences(ctx: Ctx, input: z.output<typeof PreferencesBody>) {
  const actor = requireActor(ctx);
  const current = await notificationsRepo.preferences(ctx.db, actor.userId);
  const changed: Partial<Record<PreferenceKind, KindPreference>> = {};
  for (const [kind, change] of Object.entries(input.kinds) as Array<[PreferenceKind, Partial<KindPreference> | undefined]>) {
    if (change) changed[kind] = { ...current[kind], ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
  }
  await notificationsRepo.setPreferences(ctx.db, actor.userId, changed, ctx.now());
  return getPreferences(ctx);
}

/** Watching needs read access to the page (an invisible or closed page is a 404, a trashed one 410). */
async function watchablePage(ctx: Ctx, pageId: string) {
  return (await requirePageAccess(ctx, pageId, 'viewer')).page;
}

/** Watching a space needs read access to it: an invisible space is a 404, as everywhere. */
async function watchableSpace(ctx: Ctx, spaceId: string) {
  const space = await notificationsRepo.spaceWorkspace(ctx.db, spaceId);
  if (!space) throw notFound('Space', spaceId);
  try {
    return (await requireSpaceRole(ctx, space.workspaceId, spaceId, 'viewer')).space;
  } catch (err) {
    // A workspace the caller is not in hides its spaces.
    if (err instanceof AppError && err.code === 'FORBIDDEN' && (err.details as { workspaceId?: string }).workspaceId) throw notFound('Space', spaceId);
    throw err;
  }
}

type Target = { type: 'page' | 'space'; id: string };

async function targetWorkspace(ctx: Ctx, target: Target): Promise<string> {
  return target.type === 'page' ? (await watchablePage(ctx, target.id)).workspaceId : (await watchableSpace(ctx, target.id)).workspaceId;
}

export async function watchStatus(ctx: Ctx, target: Target) {
  await targetWorkspace(ctx, target);
  return { watching: await notificationsRepo.isWatching(ctx.db, requireActor(ctx).userId, target.type, target.id) };
}

export async function watch(ctx: Ctx, target: Target) {
  const workspaceId = await targetWorkspace(ctx, target);
  await notificationsRepo.watch(ctx.db, { workspaceId, userId: requireActor(ctx).userId, targetType: target.type, targetId: target.id });
  return { watching: true };
}

export async function unwatch(ctx: Ctx, target: Target) {
  const workspaceId = await targetWorkspace(ctx, target);
  await notificationsRepo.unwatch(ctx.db, workspaceId, requireActor(ctx).userId, target.type, target.id);
  return { watching: false };
}
