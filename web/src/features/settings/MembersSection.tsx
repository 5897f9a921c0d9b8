import { ActionIcon, Alert, Button, Code, CopyButton, Group, Select, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLockCog, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { ItemTable } from '../../ui/ItemTable';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useUser } from '../auth/session';
import { invitationKeys } from '../invitations/invitations.queries';
import { InviteMembers } from '../invitations/InviteMembers';
import { ReceivedInvitations } from '../invitations/ReceivedInvitations';
import { useWorkspace } from '../workspaces/workspace-context';
import { workspaceKeys } from '../workspaces/workspaces.queries';
import { ConfirmItemModal } from './ConfirmModal';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { ResetPasswordModal } from './ResetPasswordLink';
import { type Member, ROLES, type Role, settingsKeys, shortDate, useMembers } from './settings.queries';

/** Workspace members: who they are, their role (admins change it), removal, inviting someone, and your own invitations. */
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
      <ReceivedInvitations />
      <ItemTable items={members.data} error={members.error} minWidth={560} columns={['Name', 'Email', 'Role', 'Joined']} actions={isAdmin} rowKey={(m) => m.id}>
        {(m) => (
          <>
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
          </>
        )}
      </ItemTable>
      <ConfirmItemModal
        item={removing}
        onClose={() => setRemoving(null)}
        title="Remove member"
        confirmLabel="Remove member"
        onConfirm={async (member) => {
          await data(api.DELETE('/api/v1/workspaces/{workspaceId}/members/{userId}', { params: { path: { workspaceId: workspace.id, userId: member.id } } }));
          notifications.show({ color: 'green', message: `${member.name} was removed` });
          await refresh();
        }}
      >
        {removing?.name} ({removing?.email}) will lose access to this workspace and its spaces.
      </ConfirmItemModal>
      <ResetPasswordModal member={resetting} onClose={() => setResetting(null)} />
      {isAdmin && <InviteMembers />}
      {isAdmin && <AddMember onAdded={refresh} />}
      <YourUserId />
    </Stack>
  );
}

/**
 * Adding someone who has an account by user id (there is no directory of users outside the workspace): the person
 * shares the id shown under "Your user id" in their own settings. Nobody joins without consent: the service invites
 * the account (they accept under "Invitations for you"), unless it may add them at once (an installation admin, or an
 * account of the single sign-on). Anyone else is invited by email (InviteMembers).
 */
/** What adding an account answers when it invites the account (202) rather than adding it (201, the member). */
interface MemberInvited {
  status: 'invited';
  invitation: { email: string };
}

function AddMember({ onAdded }: { onAdded(): Promise<unknown> }) {
  const workspace = useWorkspace();
  const client = useQueryClient();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const add = useMutation({
    mutationFn: async () =>
      data<Member | MemberInvited>(
        api.POST('/api/v1/workspaces/{workspaceId}/members', { params: { path: { workspaceId: workspace.id } }, body: { userId: userId.trim(), role } }),
      ),
    onSuccess: async (outcome) => {
      const message =
        'status' in outcome
          ? `${outcome.invitation.email} was invited as ${role}: they join when they accept`
          : `${outcome.name} was added as ${role}`;
      notifications.show({ color: 'green', message });
      setUserId('');
      await Promise.all([onAdded(), client.invalidateQueries({ queryKey: invitationKeys.open(workspace.id) })]);
    },
  });
  const errors = fieldErrorsOf(add.error);
  return (
    <FormStack gap="xs" onSubmit={() => add.mutate()}>
      <Title order={3}>Add a member by user id</Title>
      <Text size="sm" c="dimmed">
        Someone with an account can also be invited by their user id (shown at the bottom of their Members settings): they join when they accept.
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
    </FormStack>
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
