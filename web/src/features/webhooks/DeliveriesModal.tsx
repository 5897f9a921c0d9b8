import { Badge, Button, Code, Group, Modal, Stack, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ItemTable } from '../../ui/ItemTable';
import { type Delivery, useDeliveries, type Webhook, webhookKeys } from './webhooks.queries';

const STATUS_COLOR: Record<Delivery['status'], string> = { delivered: 'green', pending: 'gray', retrying: 'yellow', failed: 'red' };
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** An endpoint's delivery log, newest first, refreshed while open: send a test ping, or send a delivery again. */
export function DeliveriesModal({ webhook, onClose }: { webhook: Webhook | null; onClose(): void }) {
  const deliveries = useDeliveries(webhook?.id ?? null);
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.deliveries(webhook?.id ?? '') });
  const ping = useMutation({
    mutationFn: () => data(api.POST('/api/v1/webhooks/{webhookId}/ping', { params: { path: { webhookId: webhook?.id ?? '' } } })),
    onSuccess: () => refresh(),
  });
  const redeliver = useMutation({
    mutationFn: (d: Delivery) =>
      data(api.POST('/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', { params: { path: { webhookId: d.webhookId, deliveryId: d.id } } })),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Delivery queued again' });
      return refresh();
    },
  });
  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Deliveries" size="xl" centered>
      <Stack>
        <Group justify="space-between">
          <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {webhook?.url}
          </Text>
          <Button size="xs" variant="light" onClick={() => ping.mutate()} loading={ping.isPending} disabled={!webhook?.enabled}>
            Send test ping
          </Button>
        </Group>
        <ErrorNotice error={ping.error ?? redeliver.error} />
        <ItemTable
          items={deliveries.data}
          loading={deliveries.isPending}
          error={deliveries.error}
          empty="No deliveries yet. Events the endpoint subscribes to appear here as they happen."
          minWidth={720}
          label="Deliveries"
          columns={['Event', 'Status', 'Attempts', 'Response', 'Next attempt', 'Created']}
          actions
          rowKey={(d) => d.id}
        >
          {(d) => (
            <>
              <Table.Td>
                <Code>{d.eventType}</Code>
              </Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[d.status]} variant="light" styles={{ label: { overflow: 'visible' } }}>
                  {d.status}
                </Badge>
              </Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td>
                <Tooltip label={d.responseExcerpt || d.lastError || 'No answer yet'} multiline w={320} withinPortal>
                  <Text size="sm">
                    {d.responseStatus ?? (d.lastError ? 'error' : '—')}
                    {d.durationMs !== null && <Text span size="xs" c="dimmed">{` · ${d.durationMs} ms`}</Text>}
                  </Text>
                </Tooltip>
                {d.lastError && (
                  <Text size="xs" c="red" lineClamp={1}>
                    {d.lastError}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{when(d.nextAttemptAt)}</Table.Td>
              <Table.Td>{when(d.createdAt)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Redeliver ${d.eventType}`}
                  onClick={() => redeliver.mutate(d)}
                  loading={redeliver.isPending && redeliver.variables?.id === d.id}
                  disabled={!webhook?.enabled}
                >
                  Redeliver
                </Button>
              </Table.Td>
            </>
          )}
        </ItemTable>
      </Stack>
    </Modal>
  );
}
