import { Anchor, Breadcrumbs, Button, Grid, Group, Modal, NavLink, ScrollArea, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp } from '@tabler/icons-react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useCurrentSpace } from '../spaces/spaces.queries';
import { pageIdOf, paths, useWorkspace } from '../workspaces/workspace-context';
import { type RestoreOutcome, restoreVersion, useCurrentPage, useHistory, useRestore, useVersion } from './history/history.queries';
import { useBlockDiff } from './history/useBlockDiff';
import { type DiffMode, VersionDiff } from './history/VersionDiff';

const PAGE_SIZE = 50;
type CompareWith = 'previous' | 'current';

/** After a restore: says what happened and offers "Undo" (restoring the version that was current just before). */
function announceRestore(queryClient: QueryClient, pageId: string, outcome: RestoreOutcome) {
  const id = `restore-${outcome.historyId}`;
  const undo = async () => {
    notifications.update({ id, loading: true, message: 'Undoing the restore…', autoClose: false, withCloseButton: false });
    try {
      await restoreVersion(queryClient, pageId, outcome.previousHistoryId);
      notifications.update({
        id,
        loading: false,
        color: 'teal',
        message: `Undone: the page is back to version ${outcome.previousVersion} (kept as a new version).`,
        autoClose: 6000,
        withCloseButton: true,
      });
    } catch (err) {
      notifications.update({
        id,
        loading: false,
        color: 'red',
        title: 'Could not undo the restore',
        message: messageOf(err),
        autoClose: false,
        withCloseButton: true,
      });
    }
  };
  notifications.show({
    id,
    color: 'teal',
    autoClose: 20_000,
    message: (
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">
          Restored version {outcome.restoredVersion} as version {outcome.version}.
        </Text>
        <Button size="compact-sm" variant="default" onClick={() => void undo()}>
          Undo
        </Button>
      </Group>
    ),
  });
}

/**
 * `…/p/:pageRef/history`: the page's versions; one compared block by block with the version before it or with the
 * page as it is now, inline or side by side; restored after a confirmation, with "Undo" after.
 */
export default function HistoryScreen() {
  const pageId = pageIdOf(useParams().pageRef) ?? '';
  const workspace = useWorkspace();
  const { space } = useCurrentSpace();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(PAGE_SIZE);
  const history = useHistory(pageId, limit);
  const current = useCurrentPage(pageId);
  const [selected, setSelected] = useState<string | null>(null);
  const [compareWith, setCompareWith] = useState<CompareWith>('previous');
  const [mode, setMode] = useState<DiffMode>('inline');
  const [confirming, setConfirming] = useState(false);
  const entries = history.data?.entries ?? [];
  // Until the person picks one, the newest version compared with the one before it: "what changed last".
  const chosen = selected ?? entries[0]?.id ?? null;
  const index = entries.findIndex((e) => e.id === chosen);
  const entry = index >= 0 ? entries[index] : undefined;
  const isCurrent = index === 0;
  const previousEntry = index >= 0 ? entries[index + 1] : undefined;
  const version = useVersion(pageId, chosen);
  const previous = useVersion(pageId, compareWith === 'previous' ? (previousEntry?.id ?? null) : null);
  const restore = useRestore(pageId);
  // Older on the left (before), newer on the right (after). Version 1 against "previous" is the whole page added.
  const versionDoc = version.data?.content;
  const before = compareWith === 'current' ? versionDoc : previousEntry ? previous.data?.content : entry ? null : undefined;
  const after = compareWith === 'current' ? current.data?.content : versionDoc;
  const { diff, ms } = useBlockDiff(before, after);

  if (history.isPending || current.isPending) return <ScreenLoader />;
  if (history.error || current.error) return <ErrorNotice error={history.error ?? current.error} title="History could not be loaded" />;
  const page = current.data;
  const canRestore = page.role !== 'viewer';
  const spaceSlug = space?.slug ?? '';
  const pagePath = paths.page(workspace.hostname, spaceSlug, { id: pageId, slug: page.slug });
  const versionLabel = entry ? `Version ${entry.version}` : '';
  const beforeLabel = compareWith === 'current' ? versionLabel : previousEntry ? `Version ${previousEntry.version}` : 'Nothing (a new page)';
  const afterLabel = compareWith === 'current' ? 'Current page' : versionLabel;
  const titles: [string, string] =
    compareWith === 'current' ? [entry?.title ?? '', page.title] : [previousEntry?.title ?? entry?.title ?? '', entry?.title ?? ''];
  const heading = !entry
    ? ''
    : compareWith === 'current'
      ? isCurrent
        ? `Version ${entry.version} is the current page`
        : `Version ${entry.version} compared with the current page`
      : previousEntry
        ? `What version ${entry.version} changed (from version ${previousEntry.version})`
        : `Version ${entry.version}: the page as it was created`;

  const onRestore = async () => {
    if (!entry) return;
    try {
      const outcome = await restore.mutateAsync(entry.id);
      setConfirming(false);
      announceRestore(queryClient, pageId, outcome);
      navigate(pagePath);
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not restore this version', message: messageOf(err) });
    }
  };

  return (
    <Stack gap="md" maw={1200} mx="auto">
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
        <Grid.Col span={{ base: 12, md: 3 }}>
          <nav aria-label="Versions">
            <ScrollArea.Autosize mah={{ base: 240, md: '70vh' } as never}>
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
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <SegmentedControl
                size="xs"
                aria-label="Compare with"
                value={compareWith}
                onChange={(v) => setCompareWith(v as CompareWith)}
                data={[
                  { value: 'previous', label: 'Previous version' },
                  { value: 'current', label: 'Current page' },
                ]}
              />
              <SegmentedControl
                size="xs"
                aria-label="Show changes"
                value={mode}
                onChange={(v) => setMode(v as DiffMode)}
                data={[
                  { value: 'inline', label: 'Inline' },
                  { value: 'split', label: 'Side by side' },
                ]}
              />
            </Group>
            {entry && (
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text fw={600}>{heading}</Text>
                {canRestore && !isCurrent && (
                  <Button size="xs" leftSection={<IconArrowBackUp size={14} />} onClick={() => setConfirming(true)}>
                    Restore version {entry.version}
                  </Button>
                )}
              </Group>
            )}
            {(version.error || previous.error) && <ErrorNotice error={version.error ?? previous.error} title="This version could not be loaded" />}
            {entry && (
              <VersionDiff key={`${chosen}:${compareWith}`} diff={diff} mode={mode} beforeLabel={beforeLabel} afterLabel={afterLabel} titles={titles} ms={ms} />
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      <Modal opened={confirming && Boolean(entry)} onClose={() => setConfirming(false)} title={`Restore version ${entry?.version ?? ''}?`} centered>
        <Stack>
          <Text size="sm">Restore this version? The current page is kept in history: restoring makes a new version, and you can undo it.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={() => void onRestore()} loading={restore.isPending} data-autofocus>
              Restore
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
