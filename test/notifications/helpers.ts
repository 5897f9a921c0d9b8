import { dispatchEvents } from '../../src/areas/events/events.dispatch.js';
import { type NewEvent, recordEvents } from '../../src/areas/events/events.record.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/factories.js';

/** Runs the event dispatcher once, as its job would: every pending event is fanned out, then published to streams. */
export async function dispatch(t: TestApp) {
  return dispatchEvents(t.database.db);
}

/** Records events as `actor` did (the way areas record them with their changes), then dispatches them. */
export async function recordAndDispatch(t: TestApp, actor: TestUser, events: NewEvent[]) {
  await recordEvents(t.database.db, { actor: { userId: actor.id, via: 'jwt', apiKeyId: null } }, events);
  return dispatch(t);
}

export interface NotificationOut {
  id: string;
  kind: string;
  workspaceId: string;
  eventType: string;
  actor: { id: string; name: string } | null;
  subject: { type: string; id: string; title: string };
  pageId: string | null;
  spaceId: string | null;
  readAt: string | null;
  createdAt: string;
}

/** The user's notifications (first page of 100), throwing unless 200. */
export async function notificationsOf(t: TestApp, user: TestUser, query: Record<string, string> = {}): Promise<NotificationOut[]> {
  const res = await t.request({ url: '/api/v1/notifications', token: user.token, query: { limit: '100', ...query } });
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function unreadCountOf(t: TestApp, user: TestUser, workspaceId?: string): Promise<number> {
  const res = await t.request({ url: '/api/v1/notifications/unread-count', token: user.token, query: workspaceId ? { workspaceId } : {} });
  if (res.status !== 200) throw new Error(`count failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.count;
}

export async function watchPage(t: TestApp, user: TestUser, pageId: string) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/pages/${pageId}/watch`, token: user.token });
  if (res.status !== 200) throw new Error(`watch failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function watchSpace(t: TestApp, user: TestUser, spaceId: string) {
  const res = await t.request({ method: 'PUT', url: `/api/v1/spaces/${spaceId}/watch`, token: user.token });
  if (res.status !== 200) throw new Error(`watch failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function setPreferences(t: TestApp, user: TestUser, kinds: Record<string, { inApp?: boolean; email?: boolean }>) {
  const res = await t.request({ method: 'PUT', url: '/api/v1/notifications/preferences', token: user.token, body: { kinds } });
  if (res.status !== 200) throw new Error(`preferences failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A page event in the shape the pages area records. */
export const pageEvent = (
  workspaceId: string,
  page: { id: string; spaceId: string; title?: string },
  type: NewEvent['type'] = 'page.updated',
  data: Record<string, unknown> = {},
): NewEvent => ({
  workspaceId,
  type,
  subject: { type: 'page', id: page.id },
  spaceId: page.spaceId,
  pageId: page.id,
  data: { title: page.title ?? 'Page', ...data },
});
