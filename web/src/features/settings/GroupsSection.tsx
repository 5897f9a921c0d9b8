import { Anchor, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Routes } from 'react-router';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { ItemTable } from '../../ui/ItemTable';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { GroupDetailView } from './GroupDetailView';
import { type GroupDetail, settingsKeys, useGroups } from './settings.queries';

/** Groups of the workspace (a group can be given a role in a space): the list, and one group under `groups/:groupId`. */
export function GroupsSection() {
  return (
    <Routes>
      <Route index element={<GroupList />} />
      <Route path=":groupId" element={<GroupDetailView />} />
    </Routes>
  );
}

function GroupList() {
  const workspace = useWorkspace();
  const groups = useGroups(workspace.id);
  const isAdmin = workspace.role === 'admin';
  return (
    <Stack>
      <Title order={2}>Groups</Title>
      <ItemTable
        items={groups.data}
        loading={groups.isPending}
        error={groups.error}
        empty="No groups yet."
        minWidth={400}
        columns={['Group', 'Description', 'Members']}
        rowKey={(g) => g.id}
      >
        {(g) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={paths.settings(workspace.hostname, `groups/${g.id}`)}>
                {g.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{g.description}</Table.Td>
            <Table.Td>{g.memberCount}</Table.Td>
          </>
        )}
      </ItemTable>
      {isAdmin && <CreateGroup />}
    </Stack>
  );
}

function CreateGroup() {
  const workspace = useWorkspace();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: async () => (await data(api.POST('/api/v1/groups', { body: { workspaceId: workspace.id, name } }))) as GroupDetail,
    onSuccess: async (group) => {
      notifications.show({ color: 'green', message: `Group “${group.name}” created` });
      setName('');
      await client.invalidateQueries({ queryKey: settingsKeys.groups(workspace.id) });
    },
  });
  const errors = fieldErrorsOf(create.error);
  return (
    <FormStack gap="xs" onSubmit={() => create.mutate()}>
      <Title order={3}>New group</Title>
      <Group align="flex-end">
        <TextInput label="Group name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} w={280} />
        <Button type="submit" loading={create.isPending}>
          Create group
        </Button>
      </Group>
      <ErrorNotice error={formLevelError(create.error, ['name'])} title="Could not create the group" />
    </FormStack>
  );
}
