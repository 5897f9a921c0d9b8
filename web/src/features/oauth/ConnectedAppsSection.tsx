import { Badge, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ItemTable } from '../../ui/ItemTable';
import { ConfirmItemModal } from '../settings/ConfirmModal';
import { shortDate } from '../settings/settings.queries';
import { disconnect, type OAuthConnection, oauthKeys, scopeLabel, useConnections } from './oauth.queries';

/** How kb knows the app: by the metadata document its client id names, or by what it said when it registered itself. */
function identifiedBy(c: OAuthConnection['client']) {
  return c.registration === 'metadata_document' ? `Identified by its metadata document at ${c.id}` : 'Registered itself (name not verified)';
}

/** Settings › Connected apps: the apps (AI clients over MCP) the caller gave access through OAuth, and disconnecting one. */
export function ConnectedAppsSection() {
  const connections = useConnections();
  const client = useQueryClient();
  const [ending, setEnding] = useState<OAuthConnection | null>(null);
  const serverUrl = `${window.location.origin}/api/mcp`;

  return (
    <Stack>
      <Title order={2}>Connected apps</Title>
      <Text size="sm" c="dimmed">
        Apps you allowed to act as you in one workspace. Disconnecting one stops its access at once.
      </Text>
      <ItemTable
        items={connections.data}
        loading={connections.isPending}
        error={connections.error}
        empty={
          <>
            No apps are connected. An AI client connects when you add kb to it by the server URL <Code>{serverUrl}</Code>: it then sends you to a kb screen
            where you choose the workspace and what it may do.
          </>
        }
        minWidth={640}
        label="Connected apps"
        columns={['App', 'Workspace', 'Access', 'Connected', 'Last used']}
        actions
        rowKey={(c) => c.id}
      >
        {(c) => (
          <>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              {c.client.name}
              <Text size="xs" c="dimmed">
                {identifiedBy(c.client)}
              </Text>
            </Table.Td>
            <Table.Td>{c.workspace.name}</Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                {c.scopes.map((s) => (
                  <Badge
                    key={s}
                    variant="light"
                    style={{ flexShrink: 0 }}
                    styles={{ label: { overflow: 'visible' } }}
                    color={s === 'admin' ? 'red' : s === 'write' ? 'blue' : 'gray'}
                  >
                    {scopeLabel(s)}
                  </Badge>
                ))}
              </Group>
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{shortDate(c.createdAt)}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{shortDate(c.lastUsedAt, 'Never')}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="light" color="red" aria-label={`Disconnect ${c.client.name}`} onClick={() => setEnding(c)}>
                Disconnect
              </Button>
            </Table.Td>
          </>
        )}
      </ItemTable>
      <ConfirmItemModal
        item={ending}
        onClose={() => setEnding(null)}
        title="Disconnect app"
        confirmLabel="Disconnect"
        onConfirm={async (c) => {
          await disconnect(c.id);
          notifications.show({ color: 'green', message: `${c.client.name} disconnected` });
          await client.invalidateQueries({ queryKey: oauthKeys.connections });
        }}
      >
        “{ending?.client.name}” loses its access to {ending?.workspace.name} at once: its tokens stop working. To use it again, connect it again from the app.
      </ConfirmItemModal>
    </Stack>
  );
}
