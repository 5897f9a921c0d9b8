import { ActionIcon, Alert, Badge, Button, CopyButton, Group, Select, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { fieldErrorsOf, formLevelError } from '../settings/form-errors';
import { ROLES, type Role, shortDate } from '../settings/settings.queries';
import { useWorkspace } from '../workspaces/workspace-context';
import { type Invitation, invitationKeys, useInvitations } from './invitations.queries';

interface Created {
  invitation: Invitation;
  url: string;
  mailed: boolean;
  mailError?: string;
}

/** Admins invite by email (the link is shown once, with whether it was mailed) and see and revoke open invitations. */
export function InviteMembers() {
  const workspace = useWorkspace();
  return (
    <Stack>
      <InviteByEmail workspaceId={workspace.id} />
      <OpenInvitations workspaceId={workspace.id} />
    </Stack>
  );
}

function InviteByEmail({ workspaceId }: { workspaceId: string }) {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [created, setCreated] = useState<Created | null>(null);
  const invite = useMutation({
    mutationFn: async () =>
      (await data(
        api.POST('/api/v1/workspaces/{workspaceId}/invitations', { params: { path: { workspaceId } }, body: { email: email.trim(), role } }),
      )) as Created,
    onSuccess: async (result) => {
      setCreated(result);
      setEmail('');
      await client.invalidateQueries({ queryKey: invitationKeys.open(workspaceId) });
    },
  });
  const errors = fieldErrorsOf(invite.error);
  return (
    <FormStack gap="xs" onSubmit={() => invite.mutate()}>
      <Title order={3}>Invite by email</Title>
      <Text size="sm" c="dimmed">
        The person gets a one-time link that works for 7 days. It is mailed when the service has a mail server; you can always copy it and pass it on.
      </Text>
      <Group align="flex-start" wrap="wrap">
        <TextInput label="Email to invite" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={errors.email} required w={320} />
        <Select label="Invite as" data={ROLES} value={role} onChange={(v) => v && setRole(v as Role)} allowDeselect={false} w={140} error={errors.role} />
      </Group>
      <ErrorNotice error={formLevelError(invite.error, ['email', 'role'])} title="Could not invite" />
      <Group>
        <Button type="submit" loading={invite.isPending} disabled={!email.trim()}>
          Send invitation
        </Button>
      </Group>
      {created && <InvitationLink created={created} />}
    </FormStack>
  );
}

function InvitationLink({ created }: { created: Created }) {
  const { invitation, url, mailed, mailError } = created;
  return (
    <Alert color={mailed ? 'green' : 'yellow'} variant="light" title={`Invitation for ${invitation.email}`} aria-label="Invitation link">
      <Stack gap="xs">
        <Text size="sm">
          {mailed
            ? `The link was mailed to ${invitation.email}.`
            : mailError
              ? `The link could not be mailed: ${mailError}. Copy it and send it yourself.`
              : 'Mail is not set up on this service: copy the link and send it yourself.'}{' '}
          It is shown only now.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <TextInput aria-label="Invitation link" value={url} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}

function OpenInvitations({ workspaceId }: { workspaceId: string }) {
  const client = useQueryClient();
  const invitations = useInvitations(workspaceId, true);
  const revoke = useMutation({
    mutationFn: async (invitation: Invitation) =>
      data(api.DELETE('/api/v1/workspaces/{workspaceId}/invitations/{id}', { params: { path: { workspaceId, id: invitation.id } } })),
    onSuccess: (_, invitation) => {
      notifications.show({ color: 'green', message: `The invitation for ${invitation.email} was revoked` });
      return client.invalidateQueries({ queryKey: invitationKeys.open(workspaceId) });
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not revoke the invitation', message: messageOf(err) }),
  });
  const rows = invitations.data ?? [];
  return (
    <Stack gap="xs">
      <Title order={3}>Open invitations</Title>
      <ErrorNotice error={invitations.error} />
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {invitations.isPending ? 'Loading…' : 'No open invitations.'}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label="Open invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Invited by</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.email}</Table.Td>
                  <Table.Td>{ROLES.find((r) => r.value === i.role)?.label}</Table.Td>
                  <Table.Td>{i.invitedBy?.name ?? '—'}</Table.Td>
                  <Table.Td>
                    {i.status === 'expired' ? (
                      <Badge color="gray" variant="light">
                        Expired
                      </Badge>
                    ) : (
                      shortDate(i.expiresAt)
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label="Revoke invitation">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Revoke the invitation for ${i.email}`}
                        loading={revoke.isPending && revoke.variables?.id === i.id}
                        onClick={() => revoke.mutate(i)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
