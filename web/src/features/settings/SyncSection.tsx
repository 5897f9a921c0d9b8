import { Anchor, Badge, Button, Code, Group, Select, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Routes } from 'react-router';
import { api, call } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { ItemTable } from '../../ui/ItemTable';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { ConflictResolver } from './ConflictResolver';
import { SourceConflicts } from './SourceConflicts';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { shortDate } from './settings.queries';
import { MODES, type SyncConnector, type SyncSource, syncKeys, useSyncSources } from './sync.queries';

/** Local sync: the folders synced into this workspace (sources), the connectors serving them, and their conflicts. */
export function SyncSection() {
  return (
    <Routes>
      <Route index element={<SyncOverview />} />
      <Route path="sources/:sourceId" element={<SourceConflicts />} />
      <Route path="sources/:sourceId/conflicts/:conflictId" element={<ConflictResolver />} />
    </Routes>
  );
}

const modeLabel = (mode: string) => MODES.find((m) => m.value === mode)?.label ?? mode;

function SyncOverview() {
  const workspace = useWorkspace();
  const sources = useSyncSources(workspace.id);
  const client = useQueryClient();
  const pause = useMutation({
    mutationFn: async (s: SyncSource) =>
      call(api.POST(s.paused ? '/api/local-sync/sources/resume' : '/api/local-sync/sources/pause', { body: { workspaceId: workspace.id, sourceId: s.sourceId } })),
    onSuccess: () => client.invalidateQueries({ queryKey: syncKeys.sources(workspace.id) }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not change the source', message: messageOf(err) }),
  });
  // There is no list of connectors in the API: the ones serving a source are known through it.
  const connectors = new Map<string, SyncConnector>();
  for (const s of sources.data ?? []) if (s.connector) connectors.set(s.connector.connectorId, s.connector);

  return (
    <Stack>
      <Title order={2}>Sync</Title>
      <Text size="sm" c="dimmed">
        A source is a folder kept in sync by a connector (the <Code>kb sync</Code> command on someone's computer). Sources can be paused, but not deleted: the API has no removal yet.
      </Text>
      <ItemTable
        items={sources.data}
        loading={sources.isPending}
        error={sources.error}
        empty="No sources yet."
        minWidth={640}
        columns={['Source', 'Mode', 'Connector', 'Files', 'Conflicts']}
        actions
        rowKey={(s) => s.sourceId}
      >
        {(s) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={paths.settings(workspace.hostname, `sync/sources/${s.sourceId}`)}>
                {s.name}
              </Anchor>{' '}
              {s.paused && (
                <Badge size="xs" color="gray">
                  Paused
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{modeLabel(s.mode)}</Table.Td>
            <Table.Td>{s.connector ? s.connector.name : <Text c="dimmed">None</Text>}</Table.Td>
            <Table.Td>{s.fileCount}</Table.Td>
            <Table.Td>{s.openConflicts > 0 ? <Badge color="orange">{s.openConflicts} open</Badge> : 'None'}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => pause.mutate(s)} aria-label={`${s.paused ? 'Resume' : 'Pause'} ${s.name}`}>
                {s.paused ? 'Resume' : 'Pause'}
              </Button>
            </Table.Td>
          </>
        )}
      </ItemTable>
      <Title order={3}>Connectors</Title>
      {connectors.size === 0 ? (
        <Text c="dimmed" size="sm">
          No connector serves a source yet. Connectors register themselves when <Code>kb sync</Code> starts.
        </Text>
      ) : (
        <Stack gap={4}>
          {[...connectors.values()].map((c) => (
            <Group key={c.connectorId} gap="xs">
              <Badge color={c.online ? 'green' : 'gray'} variant="light">
                {c.online ? 'Online' : 'Offline'}
              </Badge>
              <Text size="sm">
                {c.name} · {c.platform} · {c.version} · last seen {shortDate(c.lastSeenAt)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      <NewSource connectors={[...connectors.values()]} />
    </Stack>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function NewSource({ connectors }: { connectors: SyncConnector[] }) {
  const workspace = useWorkspace();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [mode, setMode] = useState('bidirectional');
  const [connectorId, setConnectorId] = useState<string | null>(null);
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const create = useMutation({
    mutationFn: async () =>
      call(
        api.POST('/api/local-sync/sources', {
          body: { workspaceId: workspace.id, name, mode: mode as SyncSource['mode'], connectorId, includePatterns: lines(include), excludePatterns: lines(exclude) },
        }),
      ),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: `Source “${name}” created` });
      setName('');
      setInclude('');
      setExclude('');
      await client.invalidateQueries({ queryKey: syncKeys.sources(workspace.id) });
    },
  });
  const errors = fieldErrorsOf(create.error);
  const fieldOf = (prefix: string) => Object.entries(errors).find(([k]) => k === prefix || k.startsWith(`${prefix}.`))?.[1];
  return (
    <FormStack gap="xs" maw={560} onSubmit={() => create.mutate()}>
      <Title order={3}>New source</Title>
      <TextInput label="Source name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} />
      <Select label="Mode" data={MODES} value={mode} onChange={(v) => v && setMode(v)} allowDeselect={false} error={errors.mode} />
      <Select
        label="Connector"
        placeholder="None yet (a connector can claim it later)"
        data={connectors.map((c) => ({ value: c.connectorId, label: `${c.name} (${c.platform})` }))}
        value={connectorId}
        onChange={setConnectorId}
        clearable
        error={errors.connectorId}
      />
      <Textarea label="Include patterns" description="One glob a line, e.g. docs/**/*.md; empty: everything" value={include} onChange={(e) => setInclude(e.currentTarget.value)} error={fieldOf('includePatterns')} autosize minRows={2} />
      <Textarea label="Exclude patterns" description="One glob a line" value={exclude} onChange={(e) => setExclude(e.currentTarget.value)} error={fieldOf('excludePatterns')} autosize minRows={2} />
      <ErrorNotice error={formLevelError(create.error, ['name', 'mode', 'connectorId'].concat(Object.keys(errors).filter((k) => k.includes('Patterns'))))} title="Could not create the source" />
      <Group>
        <Button type="submit" loading={create.isPending}>
          Create source
        </Button>
      </Group>
    </FormStack>
  );
}
