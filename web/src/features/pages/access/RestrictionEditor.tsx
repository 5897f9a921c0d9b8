import { ActionIcon, Badge, Button, Group, Loader, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUsersGroup, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { type DraftGrant, type Grantee, type GrantRole, useGrantees } from './access.queries';

const ROLES = [
  { value: 'viewer', label: 'Viewer' },
  { value: 'editor', label: 'Editor' },
];

/** The grants of a restriction being edited: who may open the page and its subtree, each as viewer or editor. */
export function RestrictionEditor({
  workspaceId,
  grants,
  onChange,
  disabled,
}: {
  workspaceId: string;
  grants: DraftGrant[];
  onChange(grants: DraftGrant[]): void;
  disabled: boolean;
}) {
  const setRole = (id: string, role: GrantRole) => onChange(grants.map((g) => (g.id === id ? { ...g, role } : g)));
  const remove = (id: string) => onChange(grants.filter((g) => g.id !== id));
  const add = (grantee: Grantee) => onChange([...grants, { ...grantee, role: 'viewer' }]);
  return (
    <Stack gap="xs">
      <Stack gap="xs" component="ul" aria-label="Allowed people and groups" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {grants.map((g) => (
          <Group key={g.id} component="li" justify="space-between" wrap="wrap" gap={4}>
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 200px' }}>
              {g.type === 'group' && <IconUsersGroup size={16} aria-hidden />}
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {g.name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {g.type === 'group' ? 'Group' : g.email}
                </Text>
              </Stack>
            </Group>
            <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
              <SegmentedControl
                size="xs"
                data={ROLES}
                value={g.role}
                onChange={(v) => setRole(g.id, v as GrantRole)}
                disabled={disabled}
                aria-label={`Role of ${g.name}`}
              />
              <ActionIcon variant="subtle" color="gray" onClick={() => remove(g.id)} disabled={disabled} aria-label={`Remove ${g.name}`}>
                <IconX size={16} />
              </ActionIcon>
            </Group>
          </Group>
        ))}
      </Stack>
      <GranteePicker workspaceId={workspaceId} taken={new Set(grants.map((g) => g.id))} onPick={add} disabled={disabled || grants.length >= 200} />
    </Stack>
  );
}

/** Search the workspace's members and groups; a click adds one (as viewer). */
function GranteePicker({ workspaceId, taken, onPick, disabled }: { workspaceId: string; taken: Set<string>; onPick(g: Grantee): void; disabled: boolean }) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 200);
  const results = useGrantees(workspaceId, debounced, debounced.trim().length > 0);
  const shown = (results.data ?? []).filter((g) => !taken.has(g.id));
  const searching = debounced.trim().length > 0;
  return (
    <Stack gap={4}>
      <TextInput
        label="Add people or groups"
        placeholder="Search by name or email"
        leftSection={<IconSearch size={14} />}
        rightSection={results.isFetching ? <Loader size="xs" /> : null}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        disabled={disabled}
      />
      {searching && !results.isPending && (
        <Stack gap={2} role="list" aria-label="Matching people and groups">
          {shown.length === 0 ? (
            <Text size="xs" c="dimmed" px={4}>
              No one matches “{debounced.trim()}”.
            </Text>
          ) : (
            shown.map((g) => (
              <Button
                key={`${g.type}:${g.id}`}
                role="listitem"
                variant="subtle"
                color="gray"
                fullWidth
                justify="space-between"
                px={6}
                onClick={() => {
                  onPick(g);
                  setQuery('');
                }}
                aria-label={`Add ${g.name}`}
                rightSection={
                  <Badge size="xs" variant="light" color={g.type === 'group' ? 'cyan' : 'gray'}>
                    {g.type === 'group' ? 'Group' : 'Person'}
                  </Badge>
                }
              >
                <Text size="sm" truncate c="var(--mantine-color-text)">
                  {g.name}
                  {g.email ? (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      {g.email}
                    </Text>
                  ) : null}
                </Text>
              </Button>
            ))
          )}
        </Stack>
      )}
    </Stack>
  );
}
