import { NavLink, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconFileText, IconStarFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSpaces } from '../spaces/spaces.queries';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { type ListedPage, useFavorites, useRecentPages } from './personal.queries';

/** The path of a listed page (its space's slug from the spaces list); null until the spaces are in. */
function usePagePath() {
  const workspace = useWorkspace();
  const spaces = useSpaces(workspace.id);
  return (p: ListedPage) => {
    const space = spaces.data?.find((s) => s.id === p.spaceId);
    return space ? paths.page(workspace.hostname, space.slug, { id: p.id, slug: p.slug }) : null;
  };
}

const iconOf = (p: ListedPage) => (p.icon ? <span aria-hidden>{p.icon}</span> : <IconFileText size={16} aria-hidden />);

/** The sidebar's favourites: the pages the person starred, in the order they starred them. Nothing when there are none. */
export function FavoritesNav() {
  const workspace = useWorkspace();
  const favorites = useFavorites(workspace.id);
  const pathOf = usePagePath();
  const list = favorites.data ?? [];
  if (list.length === 0) return null;
  return (
    <nav aria-label="Favourites">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6}>
        <IconStarFilled size={10} aria-hidden /> Favourites
      </Text>
      {list.map((p) => {
        const to = pathOf(p);
        return to ? <NavLink key={p.id} component={Link} to={to} label={p.title} leftSection={iconOf(p)} /> : null;
      })}
    </nav>
  );
}

function PageList({ label, pages, empty }: { label: string; pages: ListedPage[]; empty: string }) {
  const pathOf = usePagePath();
  return (
    <Stack gap={4}>
      <Title order={2} size="h4">
        {label}
      </Title>
      {pages.length === 0 && (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
      <ul aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {pages.map((p) => {
          const to = pathOf(p);
          return (
            <li key={p.id}>
              <UnstyledButton component={Link} to={to ?? '#'} py={4} style={{ display: 'flex', gap: 8, alignItems: 'center', minWidth: 0 }}>
                {iconOf(p)}
                <Text size="sm" truncate>
                  {p.title}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {p.spaceName}
                </Text>
              </UnstyledButton>
            </li>
          );
        })}
      </ul>
    </Stack>
  );
}

/** The home screen's recent pages: those the person opened last, and those edited last in the workspace. */
export function RecentPages() {
  const workspace = useWorkspace();
  const recent = useRecentPages(workspace.id);
  if (!recent.data) return null;
  if (recent.data.visited.length === 0 && recent.data.updated.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <PageList label="Recently visited" pages={recent.data.visited} empty="Pages you open show here." />
      <PageList label="Recently updated" pages={recent.data.updated} empty="Nothing edited yet." />
    </SimpleGrid>
  );
}
