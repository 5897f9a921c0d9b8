import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFolder, IconLock, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { RecentPages } from '../pages/PersonalLists';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import { NewSpaceModal } from './NewSpaceModal';
import { useSpaces } from './spaces.queries';

const pagesLabel = (n = 0) => (n === 1 ? '1 page' : `${n} pages`);

/** `/w/:ws`: the spaces of the workspace, and (for editors and admins) a way to make one. */
export default function WorkspaceHome() {
  const workspace = useWorkspace();
  const spaces = useSpaces(workspace.id);
  const [creating, { open, close }] = useDisclosure();
  // Viewers cannot create spaces: no button rather than a refusal after the form.
  const canCreate = canEditIn(workspace.role);
  const list = spaces.data ?? [];
  return (
    <Stack maw={960}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>Spaces</Title>
        {canCreate && list.length > 0 && (
          <Button leftSection={<IconPlus size={16} />} onClick={open}>
            New space
          </Button>
        )}
      </Group>
      <RecentPages />
      <ErrorNotice error={spaces.error} title="Spaces could not load" />
      {spaces.isPending && <ScreenLoader />}
      {spaces.isSuccess && list.length === 0 && (
        <Card withBorder padding="xl" radius="md">
          <Stack align="center" gap="sm" py="lg">
            <IconFolder size={40} aria-hidden />
            <Title order={2} size="h3">
              No spaces yet
            </Title>
            <Text c="dimmed" ta="center">
              {canCreate
                ? 'A space holds the pages of a team or a project. Create the first one to start writing.'
                : 'An editor of this workspace has not created any space yet.'}
            </Text>
            {canCreate && (
              <Button leftSection={<IconPlus size={16} />} onClick={open}>
                New space
              </Button>
            )}
          </Stack>
        </Card>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Spaces">
        {list.map((s) => (
          <li key={s.id}>
            <Card withBorder radius="md" padding="md" component={Link} to={paths.space(workspace.hostname, s.slug)} h="100%">
              <Stack gap={6}>
                <Group gap="xs" wrap="nowrap">
                  <Text size="xl" aria-hidden>
                    {s.icon ?? <IconFolder size={20} />}
                  </Text>
                  <Text fw={600} truncate>
                    {s.name}
                  </Text>
                  {s.visibility === 'private' && (
                    <Badge size="xs" variant="light" color="gray" leftSection={<IconLock size={10} />}>
                      Private
                    </Badge>
                  )}
                </Group>
                {s.description && (
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {s.description}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {pagesLabel(s.pageCount)}
                </Text>
              </Stack>
            </Card>
          </li>
        ))}
      </SimpleGrid>
      <NewSpaceModal opened={creating} onClose={close} />
    </Stack>
  );
}
