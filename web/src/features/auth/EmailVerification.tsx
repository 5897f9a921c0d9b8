import { Alert, Button, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useUser } from './session';

/** Offers to mail a verification link while the signed-in person's email is not verified; nothing once it is. */
export function EmailVerification() {
  const user = useUser();
  const send = useMutation({ mutationFn: async () => data(api.POST('/api/v1/auth/verify-email')) });
  if (user.emailVerified !== false) return null;
  return (
    <Alert variant="light" color="yellow" title="Your email is not verified">
      {send.data?.mailed ? (
        <Text size="sm">We mailed a link to {send.data.email}: open it to verify your address.</Text>
      ) : (
        <>
          <Text size="sm" mb="xs">
            Verify {user.email} so that invitations to it reach you here and the invitations you send are mailed.
          </Text>
          <ErrorNotice error={send.error} title="Could not send the link" />
          <Button size="xs" variant="light" onClick={() => send.mutate()} loading={send.isPending}>
            Mail me a verification link
          </Button>
        </>
      )}
    </Alert>
  );
}
