import { Anchor, Badge, Stack, Table, Title } from '@mantine/core';
import { Link, Route, Routes } from 'react-router';
import { ItemTable } from '../../ui/ItemTable';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useSpaces } from '../spaces/spaces.queries';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { SpaceSettings } from './SpaceSettings';

/** Spaces of the workspace with their visibility; one space's settings under `spaces/:spaceId`. */
export function SpacesSection() {
  return (
    <Routes>
      <Route index element={<SpaceList />} />
      <Route path=":spaceId" element={<SpaceSettings />} />
    </Routes>
  );
}

function SpaceList() {
  const workspace = useWorkspace();
  const spaces = useSpaces(workspace.id);
  if (spaces.isPending) return <ScreenLoader />;
  return (
    <Stack>
      <Title order={2}>Spaces</Title>
      <ItemTable items={spaces.data} error={spaces.error} empty="No spaces yet." minWidth={400} columns={['Space', 'Visibility', 'Pages']} rowKey={(s) => s.id}>
        {(s) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={paths.settings(workspace.hostname, `spaces/${s.id}`)}>
                {s.icon ? `${s.icon} ` : ''}
                {s.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color={s.visibility === 'private' ? 'grape' : 'teal'}>
                {s.visibility === 'private' ? 'Private' : 'Public'}
              </Badge>
            </Table.Td>
            <Table.Td>{s.pageCount ?? 0}</Table.Td>
          </>
        )}
      </ItemTable>
    </Stack>
  );
}
