import { ActionIcon, Alert, Button, Code, CopyButton, Group, Select, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLockCog, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useUser } from '../auth/session';
import { InviteMembers } from '../invitations/InviteMembers';
import { useWorkspace } from '../workspaces/workspace-context';
import { workspaceKeys } from '../workspaces/workspaces.queries';
import { ConfirmModal } from './ConfirmModal';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { ResetPasswordModal } from './ResetPasswordLink';
import { type Member, ROLES, type Role, settingsKeys, shortDate, useMembers } from './settings.queries';

/** Workspace members: who they are, their role (admins change it), removal, and adding someone by user id. */
export function MembersSection() {
  const workspace = useWorkspace();
  const members = useMembers(workspace.id);
  const me = useUser();
  const client = useQueryClient();
  const isAdmin = workspace.role === 'admin';
  const [removing, setRemoving] = useState<Member | null>(null);
  const [resetting, setResetting] = useState<Member | null>(null);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: settingsKeys.members(workspace.id) }),
      client.invalidateQueries({ queryKey: workspaceKeys.all }),
    ]);

  const changeRole = useMutation({
    mutationFn: async ({ userId, role }: { userId: string; role: Role }) =>
      data(api.PUT('/api/v1/workspaces/{workspaceId}/members/{userId}', { params: { path: { workspaceId: workspace.id, userId } }, body: { role } })),
    onSuccess: (_, v) => {
      notifications.show({ color: 'green', message: `Role changed to ${v.role}` });
      return refresh();
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not change the role', message: messageOf(err) }),
  });

  if (members.isPending) return <ScreenLoader />;
  return (
    <Stack>
      <Title order={2}>Members</Title>
      <ErrorNotice error={members.error} />
      <Table.ScrollContainer minWidth={560}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Joined</Table.Th>
              {isAdmin && <Table.Th aria-label="Actions" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(members.data ?? []).map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>
                  {m.name}
                  {m.id === me?.id && (
                    <Text span c="dimmed" size="sm">
                      {' '}
                      (you)
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{m.email}</Table.Td>
                <Table.Td>
                  {isAdmin ? (
                    <Select
                      aria-label={`Role of ${m.name}`}
                      data={ROLES}
                      value={m.role}
                      allowDeselect={false}
                      size="xs"
                      w={110}
                      onChange={(role) => role && role !== m.role && changeRole.mutate({ userId: m.id, role: role as Role })}
                    />
                  ) : (
                    ROLES.find((r) => r.value === m.role)?.label
                  )}
                </Table.Td>
                <Table.Td>{shortDate(m.joinedAt)}</Table.Td>
                {isAdmin && (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {m.id !== me?.id && (
                        <Tooltip label="Reset password">
                          <ActionIcon variant="subtle" aria-label={`Reset password of ${m.name}`} onClick={() => setResetting(m)}>
                            <IconLockCog size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      <Tooltip label="Remove from workspace">
                        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.name}`} onClick={() => setRemoving(m)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Remove member"
        confirmLabel="Remove member"
        onConfirm={async () => {
          if (!removing) return;
          await data(api.DELETE('/api/v1/workspaces/{workspaceId}/members/{userId}', { params: { path: { workspaceId: workspace.id, userId: removing.id } } }));
          notifications.show({ color: 'green', message: `${removing.name} was removed` });
          await refresh();
        }}
      >
        {removing?.name} ({removing?.email}) will lose access to this workspace and its spaces.
      </ConfirmModal>
      <ResetPasswordModal member={resetting} onClose={() => setResetting(null)} />
      {isAdmin && <InviteMembers />}
      {isAdmin && <AddMember onAdded={refresh} />}
      <YourUserId />
    </Stack>
  );
}

/**
 * Adding someone who has an account by user id (there is no directory of users outside the workspace): the person
 * shares the id shown under "Your user id" in their own settings. Anyone else is invited by email (InviteMembers).
 */
function AddMember({ onAdded }: { onAdded(): Promise<unknown> }) {
  const workspace = useWorkspace();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const add = useMutation({
    mutationFn: async () =>
      data(api.POST('/api/v1/workspaces/{workspaceId}/members', { params: { path: { workspaceId: workspace.id } }, body: { userId: userId.trim(), role } })),
    onSuccess: async (member) => {
      notifications.show({ color: 'green', message: `${(member as Member).name} was added as ${role}` });
      setUserId('');
      await onAdded();
    },
  });
  const errors = fieldErrorsOf(add.error);
  return (
    <Stack
      component="form"
      gap="xs"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Title order={3}>Add a member by user id</Title>
      <Text size="sm" c="dimmed">
        Someone with an account can also be added at once: ask them for their user id (shown at the bottom of their Members settings).
      </Text>
      <Group align="flex-start" wrap="wrap">
        <TextInput label="User id" value={userId} onChange={(e) => setUserId(e.currentTarget.value)} error={errors.userId} required w={320} />
        <Select label="Role" data={ROLES} value={role} onChange={(v) => v && setRole(v as Role)} allowDeselect={false} w={140} error={errors.role} />
      </Group>
      <ErrorNotice error={formLevelError(add.error, ['userId', 'role'])} title="Could not add the member" />
      <Group>
        <Button type="submit" loading={add.isPending} disabled={!userId.trim()}>
          Add member
        </Button>
      </Group>
    </Stack>
  );
}

function YourUserId() {
  const me = useUser();
  if (!me) return null;
  return (
    <Alert variant="light" color="gray" title="Your user id">
      <Group gap="xs">
        <Code>{me.id}</Code>
        <CopyButton value={me.id}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy user id'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}
