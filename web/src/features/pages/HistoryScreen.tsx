import { Anchor, Breadcrumbs, Button, Grid, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useCurrentSpace } from '../spaces/spaces.queries';
import { pageIdOf, paths, useWorkspace } from '../workspaces/workspace-context';
import { useCurrentMarkdown, useHistory, useRestore, useVersionMarkdown } from './history/history.queries';
import { VersionDiff } from './history/VersionDiff';

const PAGE_SIZE = 50;

/** `…/p/:pageRef/history`: the page's versions; one compared with the page as it is now, and restored. */
export default function HistoryScreen() {
  const pageId = pageIdOf(useParams().pageRef) ?? '';
  const workspace = useWorkspace();
  const { space } = useCurrentSpace();
  const navigate = useNavigate();
  const [limit, setLimit] = useState(PAGE_SIZE);
  const history = useHistory(pageId, limit);
  const current = useCurrentMarkdown(pageId);
  const [selected, setSelected] = useState<string | null>(null);
  const entries = history.data?.entries ?? [];
  // Until the person picks one, compare with the version before the current one: "what changed last".
  const chosen = selected ?? entries[1]?.id ?? entries[0]?.id ?? null;
  const version = useVersionMarkdown(pageId, chosen);
  const restore = useRestore(pageId);

  if (history.isPending || current.isPending) return <ScreenLoader />;
  if (history.error || current.error) return <ErrorNotice error={history.error ?? current.error} title="History could not be loaded" />;
  const page = current.data;
  const canRestore = page.role !== 'viewer';
  const spaceSlug = space?.slug ?? '';
  const pagePath = paths.page(workspace.hostname, spaceSlug, { id: pageId, slug: page.slug });
  const entry = entries.find((e) => e.id === chosen);
  const isCurrent = entry?.id === entries[0]?.id;

  const onRestore = async () => {
    if (!entry) return;
    try {
      await restore.mutateAsync(entry.id);
      notifications.show({ color: 'teal', message: `Restored version ${entry.version}` });
      navigate(pagePath);
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not restore this version', message: messageOf(err) });
    }
  };

  return (
    <Stack gap="md" maw={1100} mx="auto">
      <Breadcrumbs aria-label="Breadcrumb" separator="›">
        {space && (
          <Anchor component={Link} to={paths.space(workspace.hostname, space.slug)} size="sm">
            {space.name}
          </Anchor>
        )}
        <Anchor component={Link} to={pagePath} size="sm">
          {page.title}
        </Anchor>
        <Text size="sm" c="dimmed">
          History
        </Text>
      </Breadcrumbs>
      <Title order={2}>History of “{page.title}”</Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <nav aria-label="Versions">
            <ScrollArea.Autosize mah={{ base: 260, sm: '70vh' } as never}>
              {entries.map((e, i) => (
                <NavLink
                  key={e.id}
                  component="button"
                  active={e.id === chosen}
                  aria-current={e.id === chosen ? 'true' : undefined}
                  onClick={() => setSelected(e.id)}
                  label={`Version ${e.version}${i === 0 ? ' (current)' : ''}`}
                  description={`${e.summary} · ${new Date(e.createdAt).toLocaleString()}`}
                />
              ))}
            </ScrollArea.Autosize>
            {history.data.total > entries.length && (
              <Button variant="subtle" size="xs" mt="xs" onClick={() => setLimit((l) => l + PAGE_SIZE)} loading={history.isFetching}>
                Show older versions
              </Button>
            )}
          </nav>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <Stack gap="sm">
            {entry && (
              <Group justify="space-between" wrap="wrap">
                <Text fw={600}>
                  {isCurrent ? `Version ${entry.version} is the current page` : `Changes from version ${entry.version} to the current page`}
                </Text>
                {canRestore && !isCurrent && (
                  <Button size="xs" leftSection={<IconArrowBackUp size={14} />} onClick={() => void onRestore()} loading={restore.isPending}>
                    Restore version {entry.version}
                  </Button>
                )}
              </Group>
            )}
            {version.error && <ErrorNotice error={version.error} title="This version could not be loaded" />}
            {version.isPending && chosen && <ScreenLoader />}
            {version.data && <VersionDiff before={version.data.markdown ?? ''} after={page.markdown ?? ''} />}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
