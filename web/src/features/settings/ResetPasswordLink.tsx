import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useWorkspace } from '../workspaces/workspace-context';
import { CopyValueButton, SecretField } from './SecretShownOnce';
import type { Member } from './settings.queries';

/**
 * An admin makes a one-time password-reset link for a member and copies it (it is also mailed when the service can
 * send mail). The service refuses members who also belong to a workspace this admin does not administer.
 */
export function ResetPasswordModal({ member, onClose }: { member: Member | null; onClose(): void }) {
  const workspace = useWorkspace();
  const make = useMutation({
    mutationFn: async (userId: string) =>
      data(api.POST('/api/v1/workspaces/{workspaceId}/members/{userId}/password-reset', { params: { path: { workspaceId: workspace.id, userId } } })),
  });
  const close = () => {
    make.reset();
    onClose();
  };
  const link = make.data;
  return (
    <Modal opened={member !== null} onClose={close} title={`Reset password of ${member?.name ?? ''}`} centered>
      <Stack>
        {!link && (
          <Text size="sm">
            Make a one-time link with which {member?.name} sets a new password. Using it signs them out everywhere. An earlier link stops working.
          </Text>
        )}
        <ErrorNotice error={make.error} title="Could not make a reset link" />
        {link && (
          <>
            <Text size="sm">
              Give this link to {member?.name}. It works once, until {new Date(link.expiresAt).toLocaleString()}.
            </Text>
            {link.mailed && (
              <Alert color="green" variant="light">
                It was also mailed to {member?.email}.
              </Alert>
            )}
            <SecretField label="Reset link" value={link.url} />
          </>
        )}
        <Group justify="flex-end">
          {link && <CopyValueButton value={link.url} label="Copy link" />}
          {!link && (
            <Button loading={make.isPending} onClick={() => member && make.mutate(member.id)}>
              Make reset link
            </Button>
          )}
          <Button variant="default" onClick={close}>
            {link ? 'Done' : 'Cancel'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
