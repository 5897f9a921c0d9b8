import { ActionIcon, Anchor, Button, Group, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { ItemTable } from '../../ui/ItemTable';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { ConfirmModal } from './ConfirmModal';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { settingsKeys, shortDate, useGroup, useMembers } from './settings.queries';

/** One group: rename it, add and remove its members, delete it (admins); others read. */
export function GroupDetailView() {
  const { groupId = '' } = useParams();
  const workspace = useWorkspace();
  const group = useGroup(workspace.id, groupId);
  const members = useMembers(workspace.id);
  const client = useQueryClient();
  const navigate = useNavigate();
  const isAdmin = workspace.role === 'admin';
  const [name, setName] = useState('');
  const [adding, setAdding] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const listPath = paths.settings(workspace.hostname, 'groups');

  useEffect(() => {
    if (group.data) setName(group.data.name);
  }, [group.data]);

  const refresh = () => client.invalidateQueries({ queryKey: settingsKeys.groups(workspace.id) });
  const rename = useMutation({
    mutationFn: async () => data(api.PUT('/api/v1/groups/{groupId}', { params: { path: { groupId } }, body: { workspaceId: workspace.id, name } })),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Group renamed' });
      return refresh();
    },
  });
  const addMember = useMutation({
    mutationFn: async (userId: string) =>
      data(api.POST('/api/v1/groups/{groupId}/members', { params: { path: { groupId } }, body: { workspaceId: workspace.id, userIds: [userId] } })),
    onSuccess: () => {
      setAdding(null);
      return refresh();
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not add the member', message: messageOf(err) }),
  });
  const removeMember = useMutation({
    mutationFn: async (userId: string) =>
      data(api.DELETE('/api/v1/groups/{groupId}/members/{userId}', { params: { path: { groupId, userId }, query: { workspaceId: workspace.id } } })),
    onSuccess: () => refresh(),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not remove the member', message: messageOf(err) }),
  });

  if (group.isPending) return <ScreenLoader />;
  const back = (
    <Anchor component={Link} to={listPath} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden /> All groups
      </Group>
    </Anchor>
  );
  if (group.error)
    return (
      <Stack>
        {back}
        <ErrorNotice error={group.error} />
      </Stack>
    );
  const g = group.data;
  const inGroup = new Set(g.members.map((m) => m.id));
  const candidates = (members.data ?? []).filter((m) => !inGroup.has(m.id)).map((m) => ({ value: m.id, label: `${m.name} (${m.email})` }));
  const errors = fieldErrorsOf(rename.error);
  return (
    <Stack>
      {back}
      <Title order={2}>Group: {g.name}</Title>
      {isAdmin && (
        <FormStack gap="xs" onSubmit={() => rename.mutate()}>
          <Group align="flex-end">
            <TextInput label="Group name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} w={280} />
            <Button type="submit" variant="default" loading={rename.isPending} disabled={name === g.name}>
              Rename
            </Button>
          </Group>
          <ErrorNotice error={formLevelError(rename.error, ['name'])} title="Could not rename" />
        </FormStack>
      )}
      <Title order={3}>Members</Title>
      <ItemTable items={g.members} empty="No members yet." minWidth={420} columns={['Name', 'Email', 'Added']} actions={isAdmin} rowKey={(m) => m.id}>
        {(m) => (
          <>
            <Table.Td>{m.name}</Table.Td>
            <Table.Td>{m.email}</Table.Td>
            <Table.Td>{shortDate(m.addedAt)}</Table.Td>
            {isAdmin && (
              <Table.Td>
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.name} from the group`} onClick={() => removeMember.mutate(m.id)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Table.Td>
            )}
          </>
        )}
      </ItemTable>
      {isAdmin && (
        <Group align="flex-end">
          <Select label="Add a workspace member" placeholder="Choose a member" data={candidates} value={adding} onChange={setAdding} searchable w={320} nothingFoundMessage="No one else to add" />
          <Button onClick={() => adding && addMember.mutate(adding)} disabled={!adding} loading={addMember.isPending}>
            Add to group
          </Button>
        </Group>
      )}
      {isAdmin && (
        <Group>
          <Button color="red" variant="light" onClick={() => setDeleting(true)}>
            Delete group
          </Button>
        </Group>
      )}
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete group"
        confirmLabel="Delete group"
        onConfirm={async () => {
          await data(api.DELETE('/api/v1/groups/{groupId}', { params: { path: { groupId }, query: { workspaceId: workspace.id } } }));
          notifications.show({ color: 'green', message: `Group “${g.name}” deleted` });
          await refresh();
          navigate(listPath);
        }}
      >
        The group “{g.name}” and the space roles it gives will be removed. Its members keep their own roles.
      </ConfirmModal>
    </Stack>
  );
}
