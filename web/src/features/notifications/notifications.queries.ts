import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, data } from '../../api/client';

/** One notification as `GET /v1/notifications` answers it (docs/notifications.md). */
export interface AppNotification {
  id: string;
  kind: 'mention' | 'reply' | 'assigned' | 'watch' | 'webhook_disabled' | (string & {});
  workspaceId: string;
  eventType: string;
  actor: { id: string; name: string } | null;
  subject: { type: string; id: string; title: string | null };
  pageId: string | null;
  spaceId: string | null;
  readAt: string | null;
  createdAt: string;
}

export interface NotificationsPage {
  data: AppNotification[];
  meta: { limit: number; hasMore: boolean; nextCursor: string | null; unreadCount: number };
}

/** The kinds a person can tune, in the order the settings list them. */
export const PREFERENCE_KINDS = ['mention', 'reply', 'assigned', 'watch'] as const;
export type PreferenceKind = (typeof PREFERENCE_KINDS)[number];
export type Preferences = { kinds: Record<PreferenceKind, { inApp: boolean; email: boolean }> };

export type WatchTarget = { type: 'page'; id: string } | { type: 'space'; id: string };

export const notificationKeys = {
  all: ['notifications'] as const,
  count: (workspaceId: string) => ['notifications', workspaceId, 'count'] as const,
  list: (workspaceId: string) => ['notifications', workspaceId, 'list'] as const,
  preferences: ['notifications', 'preferences'] as const,
  watch: (target: WatchTarget) => ['notifications', 'watch', target.type, target.id] as const,
};

const PAGE_SIZE = 20;

/** The bell's number: unread notifications of this workspace. Kept live by the stream (`useNotificationStream`). */
export function useUnreadCount(workspaceId: string, pollMs: number | false) {
  return useQuery({
    queryKey: notificationKeys.count(workspaceId),
    queryFn: async () => (await data(api.GET('/api/v1/notifications/unread-count', { params: { query: { workspaceId } } }))).count,
    refetchInterval: pollMs,
    staleTime: 10_000,
  });
}

/** The panel's list: unread first, then newest, twenty at a time. */
export function useNotifications(workspaceId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list(workspaceId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/notifications', {
          params: { query: { workspaceId, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ) as Promise<NotificationsPage>,
    getNextPageParam: (last) => (last.meta.hasMore ? last.meta.nextCursor : null),
    enabled,
  });
}

/** Marks one notification read in the cached list at once (the row stops looking unread before the answer). */
function markedInCache(list: InfiniteData<NotificationsPage> | undefined, id: string | null, at: string) {
  if (!list) return list;
  return {
    ...list,
    pages: list.pages.map((p) => ({ ...p, data: p.data.map((n) => (id === null || n.id === id ? { ...n, readAt: n.readAt ?? at } : n)) })),
  };
}

export function useMarkRead(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.POST('/api/v1/notifications/{notificationId}/read', { params: { path: { notificationId: id } } })),
    onMutate: (id) => {
      client.setQueryData<InfiniteData<NotificationsPage>>(notificationKeys.list(workspaceId), (list) => markedInCache(list, id, new Date().toISOString()));
    },
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.count(workspaceId) }),
  });
}

export function useMarkAllRead(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/api/v1/notifications/read-all', { body: { workspaceId } })),
    onSuccess: () => {
      client.setQueryData<InfiniteData<NotificationsPage>>(notificationKeys.list(workspaceId), (list) => markedInCache(list, null, new Date().toISOString()));
      client.setQueryData(notificationKeys.count(workspaceId), 0);
    },
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: notificationKeys.preferences,
    queryFn: async () => (await data(api.GET('/api/v1/notifications/preferences'))) as Preferences,
  });
}

/** One change, e.g. `{ watch: { email: true } }`: the service keeps every kind and field left out. */
export type PreferencesChange = Partial<Record<PreferenceKind, Partial<Preferences['kinds'][PreferenceKind]>>>;

export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: PreferencesChange) => (await data(api.PUT('/api/v1/notifications/preferences', { body: { kinds: change } }))) as Preferences,
    onSuccess: (saved) => client.setQueryData(notificationKeys.preferences, saved),
  });
}

type WatchMethod = 'GET' | 'PUT' | 'DELETE';

/** The one watch endpoint of a page or a space, by method: each answers `{ watching }`. */
async function watchCall(target: WatchTarget, method: WatchMethod): Promise<{ watching: boolean }> {
  if (target.type === 'page') {
    const init = { params: { path: { pageId: target.id } } };
    if (method === 'GET') return data(api.GET('/api/v1/pages/{pageId}/watch', init));
    if (method === 'PUT') return data(api.PUT('/api/v1/pages/{pageId}/watch', init));
    return data(api.DELETE('/api/v1/pages/{pageId}/watch', init));
  }
  const init = { params: { path: { spaceId: target.id } } };
  if (method === 'GET') return data(api.GET('/api/v1/spaces/{spaceId}/watch', init));
  if (method === 'PUT') return data(api.PUT('/api/v1/spaces/{spaceId}/watch', init));
  return data(api.DELETE('/api/v1/spaces/{spaceId}/watch', init));
}

/** Whether the caller watches a page or a space, and the toggle. */
export function useWatch(target: WatchTarget) {
  const client = useQueryClient();
  const key = notificationKeys.watch(target);
  const state = useQuery({ queryKey: key, queryFn: async () => (await watchCall(target, 'GET')).watching });
  const toggle = useMutation({
    mutationFn: async (watching: boolean) => (await watchCall(target, watching ? 'PUT' : 'DELETE')).watching,
    onSuccess: (watching) => client.setQueryData(key, watching),
  });
  return { watching: state.data, isPending: state.isPending, error: state.error ?? toggle.error, toggle };
}
