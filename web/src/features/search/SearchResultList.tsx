import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCheckbox, IconFileText } from '@tabler/icons-react';
import { Link } from 'react-router';
import { fullTime, timeAgo } from '../comments/relative-time';
import type { SpaceSummary } from '../spaces/spaces.queries';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { IconMark } from '../../ui/IconMark';
import { Snippet } from './Snippet';
import { type SearchResult, taskPath } from './search.queries';

/** Where a result opens: a page under its space's slug, a task on the tasks screen. */
function hrefOf(hostname: string, result: SearchResult, spaces: SpaceSummary[]): string | null {
  if (result.type === 'task') return taskPath(hostname, result.id);
  const space = spaces.find((s) => s.id === result.spaceId);
  return space ? paths.page(hostname, space.slug, { id: result.id }) : null;
}

export function SearchResultList({ results, spaces }: { results: SearchResult[]; spaces: SpaceSummary[] }) {
  const { hostname } = useWorkspace();
  return (
    <Stack gap="xs" component="ol" aria-label="Search results" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {results.map((r) => {
        const href = hrefOf(hostname, r, spaces);
        const space = spaces.find((s) => s.id === r.spaceId);
        const Icon = r.type === 'task' ? IconCheckbox : IconFileText;
        return (
          <Paper key={`${r.type}-${r.id}`} component="li" withBorder p="sm" radius="md">
            <Group gap="xs" wrap="nowrap" align="center">
              <IconMark icon={r.icon} fallback={<Icon size={16} aria-hidden style={{ flexShrink: 0 }} />} />
              {href ? (
                <Anchor component={Link} to={href} fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {r.title || 'Untitled'}
                </Anchor>
              ) : (
                <Text fw={600}>{r.title || 'Untitled'}</Text>
              )}
            </Group>
            <Snippet snippet={r.snippet} />
            <Group gap="xs" mt={4}>
              <Badge size="xs" variant="light" color={r.type === 'task' ? 'grape' : 'blue'}>
                {r.type === 'task' ? 'Task' : 'Page'}
              </Badge>
              {space && (
                <Text size="xs" c="dimmed">
                  {space.name}
                </Text>
              )}
              <Text size="xs" c="dimmed" component="time" dateTime={r.updatedAt} title={fullTime(r.updatedAt)}>
                updated {timeAgo(r.updatedAt)}
              </Text>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
