import { Anchor, Button, Card, Group, Pagination, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { type SpaceSummary, spaceKeys, useCurrentSpace } from '../spaces/spaces.queries';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import { type PageSummary, pageKeys, type TrashedPage } from './pages.queries';

const PER_PAGE = 50;
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** `/w/:ws/s/:space/trash`: the pages trashed in a space (not the pages that went with them), each restorable. */
export default function TrashScreen() {
  const { space, isPending, error } = useCurrentSpace();
  if (isPending) return <ScreenLoader />;
  if (error) return <ErrorNotice error={error} title="The space could not load" />;
  if (!space) return <ErrorNotice error={new Error('This space does not exist, or you cannot see it.')} title="Space not found" />;
  return <Trash key={space.id} space={space} />;
}

function Trash({ space }: { space: SpaceSummary }) {
  const workspace = useWorkspace();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const canEdit = canEditIn(workspace.role);
  const trash = useQuery({
    queryKey: [...pageKeys.trash(workspace.id, space.id), page],
    queryFn: async () =>
      (await call(api.GET('/api/v1/trash', { params: { query: { workspaceId: workspace.id, spaceId: space.id, limit: PER_PAGE, page } } }))) as unknown as {
        data: TrashedPage[];
        meta: { total: number };
      },
    placeholderData: keepPreviousData,
  });
  const restore = useMutation({
    mutationFn: async (p: TrashedPage) =>
      (await data(api.POST('/api/v1/pages/{pageId}/recover', { params: { path: { pageId: p.id } }, body: { workspaceId: workspace.id } }))) as PageSummary,
    onSuccess: (restored) => {
      notifications.show({ message: `“${restored.title}” is back in ${space.name}.` });
      qc.invalidateQueries({ queryKey: pageKeys.trash(workspace.id, space.id) });
      qc.invalidateQueries({ queryKey: pageKeys.tree(space.id) });
      qc.invalidateQueries({ queryKey: pageKeys.roots(space.id) });
      qc.invalidateQueries({ queryKey: spaceKeys.all(workspace.id) });
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not restore the page', message: messageOf(err) }),
  });
  const rows = trash.data?.data ?? [];
  const total = trash.data?.meta.total ?? 0;
  return (
    <Stack maw={960}>
      <Stack gap={4}>
        <Anchor component={Link} to={paths.space(workspace.hostname, space.slug)} size="sm">
          ← {space.name}
        </Anchor>
        <Title order={1}>Trash</Title>
        <Text c="dimmed" size="sm">
          Pages moved to the trash in {space.name}. Restoring a page brings back the pages that were inside it.
        </Text>
      </Stack>
      <ErrorNotice error={trash.error} title="The trash could not load" />
      {trash.isPending && <ScreenLoader />}
      {trash.isSuccess && rows.length === 0 && (
        <Card withBorder padding="xl" radius="md">
          <Stack align="center" gap="xs">
            <IconTrash size={36} aria-hidden />
            <Text fw={600}>The trash is empty</Text>
          </Stack>
        </Card>
      )}
      {rows.length > 0 && (
        <Table aria-label="Trashed pages">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Page</Table.Th>
              <Table.Th visibleFrom="sm">Deleted</Table.Th>
              <Table.Th visibleFrom="sm">Deleted for good</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Text fw={500}>{p.title}</Text>
                  {p.descendantCount > 0 && (
                    <Text size="xs" c="dimmed">
                      with {p.descendantCount === 1 ? '1 page inside' : `${p.descendantCount} pages inside`}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="sm">{day(p.deletedAt)}</Table.Td>
                <Table.Td visibleFrom="sm">{day(p.purgeAt)}</Table.Td>
                <Table.Td>
                  {canEdit && (
                    <Group justify="flex-end">
                      <Button
                        size="xs"
                        variant="light"
                        leftSection={<IconArrowBackUp size={14} />}
                        aria-label={`Restore ${p.title}`}
                        loading={restore.isPending && restore.variables?.id === p.id}
                        onClick={() => restore.mutate(p)}
                      >
                        Restore
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {total > PER_PAGE && <Pagination total={Math.ceil(total / PER_PAGE)} value={page} onChange={setPage} aria-label="Trash pages" />}
    </Stack>
  );
}
