import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ROLES } from '../settings/settings.queries';
import { paths } from '../workspaces/workspace-context';
import { workspaceKeys } from '../workspaces/workspaces.queries';
import { invitationKeys, type ReceivedInvitation, useReceivedInvitations } from './invitations.queries';

const roleName = (role: string) => ROLES.find((r) => r.value === role)?.label.toLowerCase() ?? role;

/**
 * "Invitations for you": workspaces whose admins invited the signed-in person (by their account, or by their verified
 * email). Nobody joins a workspace without saying so: Join or Decline each. Nothing shows when there are none.
 */
export function ReceivedInvitations() {
  const invitations = useReceivedInvitations();
  const client = useQueryClient();
  const navigate = useNavigate();
  const answer = useMutation({
    mutationFn: async ({ invitation, join }: { invitation: ReceivedInvitation; join: boolean }) => {
      const path = { params: { path: { id: invitation.id } } };
      if (join) await data(api.POST('/api/v1/users/me/invitations/{id}/accept', path));
      else await data(api.DELETE('/api/v1/users/me/invitations/{id}', path));
    },
    onSuccess: async (_, { invitation, join }) => {
      await client.invalidateQueries({ queryKey: invitationKeys.received });
      if (!join) {
        notifications.show({ message: `Invitation to ${invitation.workspace.name} declined` });
        return;
      }
      // The workspace scope must find the new workspace in the list before it opens.
      await client.refetchQueries({ queryKey: workspaceKeys.all });
      navigate(paths.workspace(invitation.workspace.hostname));
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not answer the invitation', message: messageOf(err) }),
  });
  if (!invitations.data?.length) return null;
  return (
    <Alert variant="light" color="blue" title="Invitations for you">
      <Stack gap="sm">
        {invitations.data.map((invitation) => (
          <Group key={invitation.id} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              {invitation.invitedBy ? `${invitation.invitedBy.name} invited you to ` : 'You are invited to '}
              <strong>{invitation.workspace.name}</strong> as {roleName(invitation.role)}.
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                loading={answer.isPending && answer.variables?.invitation.id === invitation.id}
                onClick={() => answer.mutate({ invitation, join: true })}
              >
                Join {invitation.workspace.name}
              </Button>
              <Button size="xs" variant="default" disabled={answer.isPending} onClick={() => answer.mutate({ invitation, join: false })}>
                Decline
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}
