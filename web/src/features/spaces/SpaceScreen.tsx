import { Anchor, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconFilePlus, IconFileText, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { ExportButton } from '../exports/ExportButton';
import { ImportButton } from '../imports/ImportButton';
import { WatchButton } from '../notifications/WatchButton';
import { NEW_PAGE, type PageSummary, rootPagesQuery } from '../pages/pages.queries';
import { useCreatePage } from '../pages/tree/tree.mutations';
import { TemplatePicker } from '../templates/TemplatePicker';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import { type SpaceSummary, useCurrentSpace } from './spaces.queries';

// One formatter for every row: toLocaleString with options builds a new one per call, ~1 ms each on the first screen.
let whenFormat: Intl.DateTimeFormat | undefined;
const when = (iso: string) => {
  whenFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return whenFormat.format(new Date(iso));
};

/** `/w/:ws/s/:space`: the space's name and description, its root pages, a new page, and its trash. */
export default function SpaceScreen() {
  const { space, isPending, error } = useCurrentSpace();
  if (isPending) return <ScreenLoader />;
  if (error) return <ErrorNotice error={error} title="The space could not load" />;
  if (!space) return <ErrorNotice error={new Error('This space does not exist, or you cannot see it.')} title="Space not found" />;
  return <SpaceView key={space.id} space={space} />;
}

function SpaceView({ space }: { space: SpaceSummary }) {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const canEdit = canEditIn(workspace.role);
  const roots = useQuery(rootPagesQuery(workspace.id, space.id));
  const create = useCreatePage({ workspaceId: workspace.id, spaceId: space.id });
  const pageHref = (p: PageSummary) => paths.page(workspace.hostname, space.slug, p);
  const newPage = () => create.mutate({ parentId: null }, { onSuccess: (p) => navigate(pageHref(p), { state: NEW_PAGE }) });
  const pages = roots.data?.data ?? [];
  return (
    <Stack maw={960}>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Title order={1}>
            {space.icon && <span aria-hidden>{space.icon} </span>}
            {space.name}
          </Title>
          {space.description && <Text c="dimmed">{space.description}</Text>}
        </Stack>
        <Group gap="xs">
          <WatchButton target={{ type: 'space', id: space.id }} size="sm" />
          <Button component={Link} to={paths.trash(workspace.hostname, space.slug)} variant="default" leftSection={<IconTrash size={16} />}>
            Trash
          </Button>
          <ExportButton target={{ workspaceId: workspace.id, spaceId: space.id }} name={space.name} />
          {canEdit && <ImportButton target={{ workspaceId: workspace.id, spaceId: space.id }} name={space.name} spaceSlug={space.slug} />}
          {canEdit && (
            <Button leftSection={<IconFilePlus size={16} />} onClick={newPage} loading={create.isPending}>
              New page
            </Button>
          )}
          {canEdit && <TemplatePicker workspaceId={workspace.id} spaceId={space.id} onCreated={(p) => navigate(pageHref(p as PageSummary))} />}
        </Group>
      </Group>
      <ErrorNotice error={roots.error} title="Pages could not load" />
      {roots.isPending && <ScreenLoader />}
      {roots.isSuccess && pages.length === 0 && (
        <Card withBorder padding="xl" radius="md">
          <Stack align="center" gap="xs">
            <IconFileText size={36} aria-hidden />
            <Text fw={600}>No pages yet</Text>
            <Text c="dimmed" size="sm" ta="center">
              {canEdit ? 'Start with a new page; pages can hold other pages.' : 'Nobody has written a page here yet.'}
            </Text>
          </Stack>
        </Card>
      )}
      {pages.length > 0 && (
        <Table highlightOnHover aria-label="Pages">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Page</Table.Th>
              <Table.Th w={200} visibleFrom="xs">
                Updated
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pages.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Anchor component={Link} to={pageHref(p)}>
                    {p.icon && <span aria-hidden>{p.icon} </span>}
                    {p.title}
                  </Anchor>
                  {Boolean(p.childCount) && (
                    <Text span size="xs" c="dimmed" ml="xs">
                      {p.childCount === 1 ? '1 page inside' : `${p.childCount} pages inside`}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="xs">
                  <Text size="sm" c="dimmed">
                    {when(p.updatedAt)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {(roots.data?.meta.total ?? 0) > pages.length && (
        <Text size="sm" c="dimmed">
          Showing the first {pages.length} of {roots.data?.meta.total} top-level pages; the tree in the sidebar has them all.
        </Text>
      )}
    </Stack>
  );
}
