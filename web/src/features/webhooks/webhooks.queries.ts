import { useQuery } from '@tanstack/react-query';
import { api, call, data } from '../../api/client';
import type { paths } from '../../api/schema';
import type { ItemOf } from '../../api/types';

/** Webhooks (docs/webhooks.md): workspace admins register endpoints that receive signed event deliveries. */
export type Webhook = ItemOf<'/api/v1/webhooks'>;
type DeliveryPage = paths['/api/v1/webhooks/{webhookId}/deliveries']['get']['responses'][200]['content']['application/json'];
export type Delivery = DeliveryPage['data'][number];
type CreateBody = NonNullable<paths['/api/v1/webhooks']['post']['requestBody']>['content']['application/json'];
export type EventType = Exclude<CreateBody['events'][number], '*'>;

/** Every event type an endpoint can subscribe to, in the words of the screen. */
export const EVENT_TYPES: { value: EventType; label: string }[] = [
  { value: 'page.created', label: 'Page created' },
  { value: 'page.updated', label: 'Page updated' },
  { value: 'page.moved', label: 'Page moved' },
  { value: 'page.trashed', label: 'Page trashed' },
  { value: 'page.restored', label: 'Page restored' },
  { value: 'page.published', label: 'Page published' },
  { value: 'comment.created', label: 'Comment created' },
  { value: 'comment.updated', label: 'Comment edited' },
  { value: 'comment.resolved', label: 'Comment resolved' },
  { value: 'task.created', label: 'Task created' },
  { value: 'task.updated', label: 'Task updated' },
  { value: 'task.assigned', label: 'Task assigned' },
  { value: 'task.status_changed', label: 'Task status changed' },
  { value: 'goal.progress_changed', label: 'Goal progress changed' },
  { value: 'member.joined', label: 'Member joined' },
  { value: 'member.removed', label: 'Member removed' },
  { value: 'research.completed', label: 'Research completed' },
  { value: 'import.finished', label: 'Import finished' },
  { value: 'export.finished', label: 'Export finished' },
];

export const webhookKeys = {
  list: (workspaceId: string) => ['webhooks', workspaceId] as const,
  deliveries: (webhookId: string) => ['webhooks', 'deliveries', webhookId] as const,
};

export function useWebhooks(workspaceId: string) {
  return useQuery({
    queryKey: webhookKeys.list(workspaceId),
    queryFn: () => data(api.GET('/api/v1/webhooks', { params: { query: { workspaceId } } })),
  });
}

/** The newest deliveries of an endpoint; refreshed every few seconds while open, so retries show as they happen. */
export function useDeliveries(webhookId: string | null) {
  return useQuery({
    queryKey: webhookKeys.deliveries(webhookId ?? ''),
    enabled: webhookId !== null,
    refetchInterval: 3000,
    queryFn: async () =>
      (await call(api.GET('/api/v1/webhooks/{webhookId}/deliveries', { params: { path: { webhookId: webhookId ?? '' }, query: { limit: 50 } } }))).data,
  });
}

export const eventsLabel = (events: string[]) =>
  events.includes('*') ? 'All events' : events.map((e) => EVENT_TYPES.find((t) => t.value === e)?.label ?? e).join(', ');
