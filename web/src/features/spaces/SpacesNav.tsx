import { Loader, NavLink, Text } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import { Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { pageTree } from '../pages/tree/load';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { useSpaces } from './spaces.queries';

// The tree brings drag and drop and virtual scrolling: loaded when a space is open, not with the shell.
const PageTree = pageTree.Component;

/** The sidebar's spaces: every space the person can see; the open one shows its page tree. */
export function SpacesNav() {
  const workspace = useWorkspace();
  const spaces = useSpaces(workspace.id);
  const { space: openSlug } = useParams();
  return (
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
          {s.slug === openSlug && (
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
  );
}
