import { Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { SESSION_KEY } from './session';

/**
 * The page of a mailed verification link: one button confirms that the address is yours (a button, not on load, so a
 * mail scanner that opens links does not confirm for you). No sign-in needed: opening the mail is the proof.
 */
export function VerifyEmailScreen() {
  const { token = '' } = useParams();
  const client = useQueryClient();
  const confirm = useMutation({
    mutationFn: async () => data(api.POST('/api/v1/auth/verify-email/confirm', { body: { token } })),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSION_KEY }),
  });
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={380} maw="100%">
        <Stack>
          <Title order={1} size="h2">
            Verify your email
          </Title>
          {confirm.data ? (
            <Text>
              <strong>{confirm.data.email}</strong> is verified. Thank you.
            </Text>
          ) : (
            <>
              <Text size="sm">Confirm that this address is yours: invitations to it then reach you in kb, and kb mails the invitations you send.</Text>
              <ErrorNotice error={confirm.error} title="Could not verify the email" />
              <Button onClick={() => confirm.mutate()} loading={confirm.isPending}>
                Confirm my email
              </Button>
            </>
          )}
          <Anchor component={Link} to="/">
            Go to kb
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
