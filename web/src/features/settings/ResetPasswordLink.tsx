import { Alert, Button, CopyButton, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useWorkspace } from '../workspaces/workspace-context';
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
            <Textarea
              label="Reset link"
              value={link.url}
              readOnly
              autosize
              minRows={2}
              onFocus={(e) => e.currentTarget.select()}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
            />
          </>
        )}
        <Group justify="flex-end">
          {link && (
            <CopyButton value={link.url}>
              {({ copied, copy }) => (
                <Button variant={copied ? 'light' : 'filled'} color={copied ? 'green' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          )}
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
