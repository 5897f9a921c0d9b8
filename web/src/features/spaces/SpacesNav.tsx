import { Loader, NavLink, Text } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import { Suspense, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FavoritesNav } from '../pages/PersonalLists';
import { pageTree } from '../pages/tree/load';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { useSpaces } from './spaces.queries';

// The tree brings drag and drop and virtual scrolling: loaded when a space is open, not with the shell.
const PageTree = pageTree.Component;

const treeSpaceKey = (workspaceId: string) => `kb-tree-space:${workspaceId}`;

/**
 * The space whose tree the sidebar shows: the open one, else the last one visited in this workspace (remembered on
 * this device), so the tree stays on Tasks, Search, Settings and every other screen. The tree stays mounted while the
 * person moves between screens, so its levels are not read again on each navigation.
 */
function useTreeSpace(workspaceId: string, openSlug: string | undefined): string | undefined {
  const [remembered, setRemembered] = useState(() => {
    try {
      return localStorage.getItem(treeSpaceKey(workspaceId)) ?? undefined;
    } catch {
      return undefined;
    }
  });
  useEffect(() => {
    if (!openSlug) return;
    setRemembered(openSlug);
    try {
      localStorage.setItem(treeSpaceKey(workspaceId), openSlug);
    } catch {
      // storage full or refused: the tree still follows the open space
    }
  }, [workspaceId, openSlug]);
  return openSlug ?? remembered;
}

/** The sidebar's spaces: every space the person can see; the open one (or the last one visited) shows its page tree. */
export function SpacesNav() {
  const workspace = useWorkspace();
  const spaces = useSpaces(workspace.id);
  const { space: openSlug } = useParams();
  const treeSlug = useTreeSpace(workspace.id, openSlug);
  return (
    <>
      <FavoritesNav />
      <nav aria-label="Spaces">
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6}>
          Spaces
        </Text>
        <ErrorNotice error={spaces.error} />
        {(spaces.data ?? []).map((s) => (
          <div key={s.id}>
            <NavLink
              component={Link}
              to={paths.space(workspace.hostname, s.slug)}
              label={s.name}
              leftSection={s.icon ? <span aria-hidden>{s.icon}</span> : <IconFolder size={16} />}
              active={s.slug === openSlug}
              aria-current={s.slug === openSlug ? 'location' : undefined}
            />
            {s.slug === treeSlug && (
              <Suspense fallback={<Loader size="xs" aria-label="Loading pages" m="xs" />}>
                <PageTree space={s} />
              </Suspense>
            )}
          </div>
        ))}
        {spaces.data?.length === 0 && (
          <Text size="xs" c="dimmed" px="sm">
            No spaces yet
          </Text>
        )}
      </nav>
    </>
  );
}
