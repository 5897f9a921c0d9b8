import { Anchor, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { shortDate } from './settings.queries';
import { useConflicts, useSyncSources } from './sync.queries';

/** The open conflicts of one source; each opens its preview. */
export function SourceConflicts() {
  const { sourceId = '' } = useParams();
  const workspace = useWorkspace();
  const sources = useSyncSources(workspace.id);
  const conflicts = useConflicts(workspace.id, sourceId);
  const source = sources.data?.find((s) => s.sourceId === sourceId);
  const base = paths.settings(workspace.hostname, 'sync');
  return (
    <Stack>
      <Anchor component={Link} to={base} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden /> All sources
        </Group>
      </Anchor>
      <Title order={2}>Conflicts of {source?.name ?? 'this source'}</Title>
      {conflicts.isPending ? <ScreenLoader /> : <ErrorNotice error={conflicts.error} />}
      {conflicts.data?.length === 0 && <Text c="dimmed">No open conflicts: every file agrees on both sides.</Text>}
      {!!conflicts.data?.length && (
        <Table.ScrollContainer minWidth={420}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Caused by</Table.Th>
                <Table.Th>Since</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conflicts.data.map((c) => (
                <Table.Tr key={c.conflictId}>
                  <Table.Td>
                    <Anchor component={Link} to={`${base}/sources/${sourceId}/conflicts/${c.conflictId}`}>
                      {c.relativePath}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{c.origin === 'push' ? 'A connector push' : 'An edit in the service'}</Table.Td>
                  <Table.Td>{shortDate(c.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
