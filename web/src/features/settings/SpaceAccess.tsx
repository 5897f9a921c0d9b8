import { ActionIcon, Badge, Button, Group, SegmentedControl, Select, Stack, Table, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ItemTable } from '../../ui/ItemTable';
import { useWorkspace } from '../workspaces/workspace-context';
import { ROLES, type Role, useGroups, useMembers } from './settings.queries';
import { type SpacePermission, spaceSettingsKeys, useSpacePermissions } from './spaces-settings.queries';

/** The direct roles in a space, of users and of groups: change, remove, add. */
export function SpaceAccess({ spaceId }: { spaceId: string }) {
  const workspace = useWorkspace();
  const permissions = useSpacePermissions(workspace.id, spaceId);
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: spaceSettingsKeys.one(workspace.id, spaceId) });
  const onError = (title: string) => (err: unknown) => notifications.show({ color: 'red', title, message: messageOf(err) });

  const setRole = useMutation({
    mutationFn: async ({ p, role }: { p: SpacePermission; role: Role }) =>
      data(api.PUT('/api/v1/spaces/{spaceId}/permissions', { params: { path: { spaceId } }, body: { workspaceId: workspace.id, targetId: p.targetId, isGroup: p.isGroup, role } })),
    onSuccess: () => refresh(),
    onError: onError('Could not change the role'),
  });
  const remove = useMutation({
    mutationFn: async (p: SpacePermission) =>
      data(api.DELETE('/api/v1/spaces/{spaceId}/members/{userId}', { params: { path: { spaceId, userId: p.targetId }, query: { workspaceId: workspace.id } } })),
    onSuccess: () => refresh(),
    onError: onError('Could not remove the access'),
  });

  return (
    <Stack>
      <Title order={3}>Members and groups</Title>
      <ItemTable
        items={permissions.data}
        error={permissions.error}
        empty="No one has a role of their own in this space."
        minWidth={420}
        columns={['Who', 'Role']}
        actions
        rowKey={(p) => p.targetId}
      >
        {(p) => (
          <>
            <Table.Td>
              <Group gap={6}>
                {p.name}
                {p.isGroup && (
                  <Badge size="xs" variant="light">
                    Group
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>
              <Select
                aria-label={`Space role of ${p.name}`}
                data={ROLES}
                value={p.role}
                allowDeselect={false}
                size="xs"
                w={110}
                onChange={(role) => role && role !== p.role && setRole.mutate({ p, role: role as Role })}
              />
            </Table.Td>
            <Table.Td>
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${p.name} from the space`} onClick={() => remove.mutate(p)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Table.Td>
          </>
        )}
      </ItemTable>
      <GrantAccess spaceId={spaceId} taken={new Set((permissions.data ?? []).map((p) => p.targetId))} onAdded={refresh} />
    </Stack>
  );
}

function GrantAccess({ spaceId, taken, onAdded }: { spaceId: string; taken: Set<string>; onAdded(): Promise<unknown> }) {
  const workspace = useWorkspace();
  const members = useMembers(workspace.id);
  const groups = useGroups(workspace.id);
  const [kind, setKind] = useState<'user' | 'group'>('user');
  const [target, setTarget] = useState<string | null>(null);
  const [role, setRole] = useState<Role>('editor');
  const add = useMutation({
    mutationFn: async () =>
      data(
        api.POST('/api/v1/spaces/{spaceId}/members', {
          params: { path: { spaceId } },
          body: { workspaceId: workspace.id, role, ...(kind === 'user' ? { userIds: [target as string] } : { groupIds: [target as string] }) },
        }),
      ),
    onSuccess: () => {
      setTarget(null);
      return onAdded();
    },
  });
  const options =
    kind === 'user'
      ? (members.data ?? []).filter((m) => !taken.has(m.id)).map((m) => ({ value: m.id, label: `${m.name} (${m.email})` }))
      : (groups.data ?? []).filter((g) => !taken.has(g.id)).map((g) => ({ value: g.id, label: g.name }));
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Add a user or a group"
          data={[
            { value: 'user', label: 'User' },
            { value: 'group', label: 'Group' },
          ]}
          value={kind}
          onChange={(v) => {
            setKind(v as 'user' | 'group');
            setTarget(null);
          }}
        />
        <Select
          label={kind === 'user' ? 'Workspace member' : 'Group'}
          placeholder="Choose"
          data={options}
          value={target}
          onChange={setTarget}
          searchable
          w={280}
          nothingFoundMessage="No one left to add"
        />
        <Select label="Space role" data={ROLES} value={role} onChange={(v) => v && setRole(v as Role)} allowDeselect={false} w={120} />
        <Button onClick={() => add.mutate()} disabled={!target} loading={add.isPending}>
          Give access
        </Button>
      </Group>
      <ErrorNotice error={add.error} title="Could not give access" />
    </Stack>
  );
}
