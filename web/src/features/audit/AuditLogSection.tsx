import { Box, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useMembers } from '../settings/settings.queries';
import { useWorkspace } from '../workspaces/workspace-context';
import { ACTION_GROUPS, type AuditEntry, type AuditFilter, useAuditLog } from './audit.queries';
import { describeEntry, when } from './audit.words';

/**
 * Settings → Audit log (workspace admins only: the section is not offered to anyone else). Who did what and when,
 * from where: a table on wide screens, a card per entry on phones. Filters by kind of event and by person.
 */
export function AuditLogSection() {
  const workspace = useWorkspace();
  const members = useMembers(workspace.id);
  const [filter, setFilter] = useState<AuditFilter>({ group: null, actorId: null });
  const log = useAuditLog(workspace.id, filter);
  const entries = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      <Text c="dimmed" size="sm">
        Security events of this workspace and the sign-ins, sessions, keys and passwords of its members. Entries cannot be changed.
      </Text>
      <Group gap="sm" align="flex-end">
        <Select
          label="Events"
          placeholder="All events"
          data={ACTION_GROUPS.map((g) => ({ value: g.value, label: g.label }))}
          value={filter.group}
          onChange={(group) => setFilter((f) => ({ ...f, group }))}
          clearable
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          label="Person"
          placeholder="Anyone"
          data={(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
          value={filter.actorId}
          onChange={(actorId) => setFilter((f) => ({ ...f, actorId }))}
          searchable
          clearable
          w={{ base: '100%', xs: 240 }}
        />
      </Group>
      {log.isPending ? <ScreenLoader /> : <ErrorNotice error={log.error} />}
      {log.isSuccess && entries.length === 0 && <Text c="dimmed">No events{filter.group || filter.actorId ? ' match these filters' : ' yet'}.</Text>}
      {entries.length > 0 && (
        <>
          <Box visibleFrom="sm">
            <AuditTable entries={entries} />
          </Box>
          <Stack hiddenFrom="sm" gap="xs" component="ul" aria-label="Audit log entries" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {entries.map((e) => (
              <AuditCard key={e.id} entry={e} />
            ))}
          </Stack>
        </>
      )}
      {log.hasNextPage && (
        <Group>
          <Button variant="default" onClick={() => log.fetchNextPage()} loading={log.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={170}>Time</Table.Th>
            <Table.Th w={160}>Who</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th w={140}>Address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>
                <time dateTime={e.createdAt}>{when(e.createdAt)}</time>
              </Table.Td>
              <Table.Td>
                <Who entry={e} />
              </Table.Td>
              <Table.Td>{describeEntry(e)}</Table.Td>
              <Table.Td title={e.userAgent ?? undefined}>
                <Text size="sm" ff="monospace">
                  {e.address ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function AuditCard({ entry }: { entry: AuditEntry }) {
  return (
    <Card component="li" withBorder padding="sm">
      <Text size="sm">{describeEntry(entry)}</Text>
      <Group gap="xs" mt={4} wrap="wrap">
        <Text size="xs" c="dimmed">
          <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
        </Text>
        {entry.address && (
          <Text size="xs" c="dimmed" ff="monospace">
            {entry.address}
          </Text>
        )}
        {entry.actor && (
          <Text size="xs" c="dimmed">
            {entry.actor.email}
          </Text>
        )}
      </Group>
    </Card>
  );
}

function Who({ entry }: { entry: AuditEntry }) {
  if (!entry.actor) return <Text c="dimmed">Unknown</Text>;
  return (
    <Text size="sm" title={entry.actor.email}>
      {entry.actor.name}
    </Text>
  );
}
