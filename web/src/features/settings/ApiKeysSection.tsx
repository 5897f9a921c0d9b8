import { Badge, Button, Code, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormButtons, FormStack } from '../../ui/FormStack';
import { ItemTable } from '../../ui/ItemTable';
import { SegmentedField } from '../../ui/SegmentedField';
import { useWorkspaces } from '../workspaces/workspaces.queries';
import { ConfirmItemModal } from './ConfirmModal';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { SecretShownOnce } from './SecretShownOnce';
import { type ApiKey, settingsKeys, shortDate, useApiKeys } from './settings.queries';

/** The caller's own API keys (they act as the caller, in every workspace or in one): list, create (secret shown once), revoke. */
export function ApiKeysSection() {
  const keys = useApiKeys();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: settingsKeys.apiKeys });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>API keys</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New API key
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        A key acts with your permissions for scripts and agents: send it as <Code>Authorization: Bearer &lt;key&gt;</Code>.
      </Text>
      <ItemTable
        items={keys.data}
        loading={keys.isPending}
        error={keys.error}
        empty="You have no API keys yet."
        minWidth={520}
        columns={['Name', 'Prefix', 'Access', 'Expires', 'Created', 'Last used']}
        actions
        rowKey={(k) => k.id}
      >
        {(k) => (
          <>
            <Table.Td>
              {k.name}
              {k.workspaceId && (
                <Text size="xs" c="dimmed">
                  Only in {k.workspaceName}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Code>{k.prefix}…</Code>
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color={k.access === 'read-only' ? 'gray' : 'blue'}>
                {k.access === 'read-only' ? 'Read only' : 'Read and write'}
              </Badge>
            </Table.Td>
            <Table.Td>{shortDate(k.expiresAt, 'Never')}</Table.Td>
            <Table.Td>{shortDate(k.createdAt)}</Table.Td>
            <Table.Td>{shortDate(k.lastUsedAt, 'Never')}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="light" color="red" aria-label={`Revoke ${k.name}`} onClick={() => setRevoking(k)}>
                Revoke
              </Button>
            </Table.Td>
          </>
        )}
      </ItemTable>
      <NewKeyModal opened={creating} onClose={() => setCreating(false)} onCreated={refresh} />
      <ConfirmItemModal
        item={revoking}
        onClose={() => setRevoking(null)}
        title="Revoke API key"
        confirmLabel="Revoke key"
        onConfirm={async (key) => {
          await data(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: key.id } } }));
          notifications.show({ color: 'green', message: `Key “${key.name}” revoked` });
          await refresh();
        }}
      >
        Scripts using “{revoking?.name}” will get 401 from now on. This cannot be undone.
      </ConfirmItemModal>
    </Stack>
  );
}

/** Names a new key, then shows its secret once: the service keeps only a hash, so this is the only chance to copy it. */
function NewKeyModal({ opened, onClose, onCreated }: { opened: boolean; onClose(): void; onCreated(): Promise<unknown> }) {
  const [name, setName] = useState('');
  const [access, setAccess] = useState<'read-write' | 'read-only'>('read-write');
  const [lifetime, setLifetime] = useState<string>('never');
  const [workspaceId, setWorkspaceId] = useState<string>('all');
  const workspaces = useWorkspaces();
  const create = useMutation({
    mutationFn: async () => {
      const days = Number(lifetime);
      const expiresAt = lifetime === 'never' ? undefined : new Date(Date.now() + days * 86_400_000).toISOString();
      const scope = { ...(expiresAt ? { expiresAt } : {}), ...(workspaceId === 'all' ? {} : { workspaceId }) };
      return data(api.POST('/api/v1/api-keys', { body: { name, access, ...scope } }));
    },
    onSuccess: () => onCreated(),
  });
  const close = () => {
    setName('');
    setAccess('read-write');
    setLifetime('never');
    setWorkspaceId('all');
    create.reset();
    onClose();
  };
  const errors = fieldErrorsOf(create.error);
  const created = create.data;
  return (
    <Modal opened={opened} onClose={close} title={created ? 'Copy your new API key' : 'New API key'} centered>
      {created ? (
        <SecretShownOnce label="API key" secret={created.key} warning="Copy it now" onDone={close}>
          This key will not be shown again. Store it somewhere safe; if you lose it, revoke it and make a new one.
        </SecretShownOnce>
      ) : (
        <FormStack onSubmit={() => create.mutate()}>
          <TextInput
            label="Key name"
            description="What the key is for, e.g. “CI sync” or “Claude agent”."
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <SegmentedField
            label="Access"
            value={access}
            onChange={setAccess}
            data={[
              { value: 'read-write', label: 'Read and write' },
              { value: 'read-only', label: 'Read only' },
            ]}
            description="A read-only key reads what you read and is refused every change, through the API and MCP tools alike."
          />
          <Select
            label="Expires"
            value={lifetime}
            onChange={(v) => setLifetime(v ?? 'never')}
            allowDeselect={false}
            data={[
              { value: 'never', label: 'Never' },
              { value: '7', label: 'In 7 days' },
              { value: '30', label: 'In 30 days' },
              { value: '90', label: 'In 90 days' },
              { value: '365', label: 'In a year' },
            ]}
            error={errors.expiresAt}
          />
          <Select
            label="Workspace"
            description="A key limited to one workspace acts as a non-member everywhere else."
            value={workspaceId}
            onChange={(v) => setWorkspaceId(v ?? 'all')}
            allowDeselect={false}
            data={[{ value: 'all', label: 'All my workspaces' }, ...(workspaces.data ?? []).map((w) => ({ value: w.id, label: w.name }))]}
            error={errors.workspaceId}
          />
          <ErrorNotice error={formLevelError(create.error, ['name', 'expiresAt', 'workspaceId'])} title="Could not create the key" />
          <FormButtons submit="Create key" onCancel={close} loading={create.isPending} />
        </FormStack>
      )}
    </Modal>
  );
}
