import { Anchor, Group, Stack, Table, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { ItemTable } from '../../ui/ItemTable';
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
      <ItemTable
        items={conflicts.data}
        loading={conflicts.isPending}
        error={conflicts.error}
        empty="No open conflicts: every file agrees on both sides."
        minWidth={420}
        columns={['File', 'Caused by', 'Since']}
        rowKey={(c) => c.conflictId}
      >
        {(c) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={`${base}/sources/${sourceId}/conflicts/${c.conflictId}`}>
                {c.relativePath}
              </Anchor>
            </Table.Td>
            <Table.Td>{c.origin === 'push' ? 'A connector push' : 'An edit in the service'}</Table.Td>
            <Table.Td>{shortDate(c.createdAt)}</Table.Td>
          </>
        )}
      </ItemTable>
    </Stack>
  );
}
