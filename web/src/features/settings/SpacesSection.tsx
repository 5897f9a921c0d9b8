import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { Link, Route, Routes } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
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
      <ErrorNotice error={spaces.error} />
      {spaces.data?.length === 0 && <Text c="dimmed">No spaces yet.</Text>}
      {!!spaces.data?.length && (
        <Table.ScrollContainer minWidth={400}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Space</Table.Th>
                <Table.Th>Visibility</Table.Th>
                <Table.Th>Pages</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {spaces.data.map((s) => (
                <Table.Tr key={s.id}>
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
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
