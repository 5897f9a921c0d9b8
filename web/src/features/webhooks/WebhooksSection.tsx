import { Badge, Button, Group, Menu, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ItemTable } from '../../ui/ItemTable';
import { ConfirmItemModal } from '../settings/ConfirmModal';
import { useWorkspace } from '../workspaces/workspace-context';
import { DeliveriesModal } from './DeliveriesModal';
import { NewWebhookModal } from './NewWebhookModal';
import { SecretReveal } from './SecretReveal';
import { eventsLabel, useWebhooks, type Webhook, webhookKeys } from './webhooks.queries';

/** Settings → Webhooks (workspace admins): endpoints that receive signed deliveries of the workspace's events. */
export function WebhooksSection() {
  const workspace = useWorkspace();
  const hooks = useWebhooks(workspace.id);
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.list(workspace.id) });

  const setEnabled = async (hook: Webhook, enabled: boolean) => {
    setError(null);
    try {
      await data(api.PATCH('/api/v1/webhooks/{webhookId}', { params: { path: { webhookId: hook.id } }, body: { enabled } }));
      notifications.show({ color: 'green', message: enabled ? 'Webhook enabled' : 'Webhook disabled' });
      await refresh();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Webhooks</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New webhook
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Each event of this workspace is POSTed to the endpoints that subscribe to it, signed with the endpoint’s secret (Standard Webhooks), and retried for
        about a day until it is answered with 2xx. Events about restricted pages are never sent.
      </Text>
      <ErrorNotice error={error} />
      <ItemTable
        items={hooks.data}
        loading={hooks.isPending}
        error={hooks.error}
        empty="No webhooks yet."
        minWidth={620}
        label="Webhooks"
        columns={['Endpoint', 'Events', 'Status']}
        actions
        rowKey={(h) => h.id}
      >
        {(h) => (
          <>
            <Table.Td style={{ wordBreak: 'break-all' }}>
              {h.url}
              {h.description && (
                <Text size="xs" c="dimmed">
                  {h.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm" lineClamp={2}>
                {eventsLabel(h.events)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color={h.enabled ? 'green' : 'gray'} variant="light">
                {h.enabled ? 'Enabled' : 'Disabled'}
              </Badge>
              {!h.enabled && h.disabledReason && (
                <Text size="xs" c="dimmed">
                  {h.disabledReason}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap" justify="flex-end">
                <Button size="xs" variant="light" onClick={() => setLogOf(h)} aria-label={`Deliveries of ${h.url}`}>
                  Deliveries
                </Button>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <Button size="xs" variant="default" aria-label={`More actions for ${h.url}`} px={6}>
                      <IconDots size={16} />
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => setEnabled(h, !h.enabled)}>{h.enabled ? 'Disable' : 'Enable'}</Menu.Item>
                    <Menu.Item onClick={() => setRotating(h)}>Rotate secret</Menu.Item>
                    <Menu.Item color="red" onClick={() => setDeleting(h)}>
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Group>
            </Table.Td>
          </>
        )}
      </ItemTable>
      <NewWebhookModal workspaceId={workspace.id} opened={creating} onClose={() => setCreating(false)} onCreated={refresh} />
      <DeliveriesModal webhook={logOf} onClose={() => setLogOf(null)} />
      <ConfirmItemModal
        item={rotating}
        onClose={() => setRotating(null)}
        title="Rotate signing secret"
        confirmLabel="Rotate secret"
        onConfirm={async (hook) => {
          const answer = await data(api.POST('/api/v1/webhooks/{webhookId}/rotate-secret', { params: { path: { webhookId: hook.id } } }));
          setSecret(answer.secret);
          await refresh();
        }}
      >
        Deliveries are signed with the new secret at once; the endpoint rejects them until it has it.
      </ConfirmItemModal>
      <ConfirmItemModal
        item={deleting}
        onClose={() => setDeleting(null)}
        title="Delete webhook"
        confirmLabel="Delete webhook"
        onConfirm={async (hook) => {
          await data(api.DELETE('/api/v1/webhooks/{webhookId}', { params: { path: { webhookId: hook.id } } }));
          notifications.show({ color: 'green', message: 'Webhook deleted' });
          await refresh();
        }}
      >
        {deleting?.url} will get no more deliveries, and its delivery log is deleted.
      </ConfirmItemModal>
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title="New signing secret" centered size="lg">
        {secret && <SecretReveal secret={secret} onDone={() => setSecret(null)} />}
      </Modal>
    </Stack>
  );
}
