import { Badge, Group, ScrollArea, Stack, Text } from '@mantine/core';
import type { AccessPerson } from './access.queries';

const ROLE: Record<AccessPerson['role'], string> = { viewer: 'Can view', editor: 'Can edit', admin: 'Admin' };

/** Why someone has access, as a badge: the kind of reason; its `detail` says which space, group or restriction. */
const VIA: Record<AccessPerson['via'], { label: string; color: string }> = {
  workspace_admin: { label: 'Workspace admin', color: 'grape' },
  space_role: { label: 'Space role', color: 'blue' },
  space_group: { label: 'Group', color: 'cyan' },
  public_space: { label: 'Workspace member', color: 'gray' },
  restriction: { label: 'Restriction', color: 'orange' },
};

/** "Who has access": everyone who can open the page, with their effective role on it and why. */
export function PeopleList({ people, truncated }: { people: AccessPerson[]; truncated: boolean }) {
  return (
    <Stack gap={4}>
      <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
        <Stack gap="xs" component="ul" aria-label="People with access" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {people.map((p) => (
            <Group key={p.user.id} component="li" justify="space-between" wrap="wrap" gap={4} align="flex-start">
              {/* On a phone the badges go under the name rather than squeezing it. */}
              <Stack gap={0} style={{ minWidth: 0, flex: '1 1 210px' }}>
                <Text size="sm" fw={500} truncate>
                  {p.user.name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {p.detail}
                </Text>
              </Stack>
              <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                <Badge size="sm" variant="light" color={VIA[p.via].color}>
                  {VIA[p.via].label}
                </Badge>
                <Badge size="sm" variant="outline" color="gray">
                  {ROLE[p.role]}
                </Badge>
              </Group>
            </Group>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      {people.length === 0 && (
        <Text size="sm" c="dimmed">
          No one can open this page at the moment.
        </Text>
      )}
      {truncated && (
        <Text size="xs" c="dimmed">
          Showing the first {people.length} people.
        </Text>
      )}
    </Stack>
  );
}
