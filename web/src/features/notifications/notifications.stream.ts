import { type InfiniteData, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type AppNotification, type NotificationsPage, notificationKeys } from './notifications.queries';

const STREAM_URL = '/api/v1/notifications/stream';
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

/** Puts a notification that just arrived at the top of the cached list (unread first), once. */
function prepend(client: QueryClient, workspaceId: string, n: AppNotification) {
  client.setQueryData<InfiniteData<NotificationsPage>>(notificationKeys.list(workspaceId), (list) => {
    if (!list || list.pages.some((p) => p.data.some((x) => x.id === n.id))) return list;
    const [first, ...rest] = list.pages;
    return { ...list, pages: [{ ...first, data: [n, ...first.data] }, ...rest] };
  });
}

function parse<T>(event: MessageEvent): T | null {
  try {
    return JSON.parse(event.data) as T;
  } catch {
    return null;
  }
}

/**
 * Keeps the bell live: an `EventSource` on `/v1/notifications/stream` (the session cookie goes with it) writes
 * `count` and `notification` events into the query cache. When the stream fails it is closed and opened again after
 * 1 s, 2 s, 4 s … up to a minute; while it is down the caller polls (`connected` is false). Without EventSource at
 * all, polling is all there is.
 */
export function useNotificationStream(workspaceId: string): { connected: boolean } {
  const client = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = FIRST_RETRY_MS;
    let stopped = false;

    const open = () => {
      source = new EventSource(`${STREAM_URL}?workspaceId=${encodeURIComponent(workspaceId)}`);
      source.onopen = () => setConnected(true);
      source.addEventListener('count', (event) => {
        // The stream is opened for this workspace, so its count is this workspace's: the bell's number as is. It starts
        // with one (covering whatever happened while it was down), so a stream that answers resets the backoff.
        const body = parse<{ count: number }>(event as MessageEvent);
        if (typeof body?.count !== 'number') return;
        delay = FIRST_RETRY_MS;
        client.setQueryData(notificationKeys.count(workspaceId), body.count);
      });
      source.addEventListener('notification', (event) => {
        const n = parse<AppNotification>(event as MessageEvent);
        if (n?.workspaceId === workspaceId) prepend(client, workspaceId, n);
      });
      source.onerror = () => {
        // EventSource retries network drops by itself but gives up on an HTTP error; one policy for both: close, back off.
        source?.close();
        source = null;
        setConnected(false);
        if (stopped) return;
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      setConnected(false);
    };
  }, [client, workspaceId]);
  return { connected };
}
