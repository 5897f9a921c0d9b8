import { Alert, Anchor, Button, Center, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { useSession } from '../auth/session';
import { ROLES } from '../settings/settings.queries';
import { workspaceKeys } from '../workspaces/workspaces.queries';
import { type InvitationPreview, useInvitationPreview } from './invitations.queries';

const roleName = (role: string) => ROLES.find((r) => r.value === role)?.label.toLowerCase() ?? role;

/**
 * `/invite/<token>`, reachable signed out: what the invitation is for, then the way in that fits — join when signed in
 * as the invited address, create the account when there is none, or sign in first and come back.
 */
export function InvitationScreen() {
  const { token = '' } = useParams();
  const preview = useInvitationPreview(token);
  const { user, loading } = useSession();
  if (preview.isPending || loading)
    return (
      <Frame>
        <Center>
          <Loader aria-label="Loading" />
        </Center>
      </Frame>
    );
  if (preview.error) return <LinkNotUsable error={preview.error} />;
  const invitation = preview.data;
  const signedInAs = user?.email.toLowerCase() ?? null;
  return (
    <Frame>
      <Title order={1} size="h2">
        {invitation.inviter ? `${invitation.inviter.name} invited you to ${invitation.workspace.name}` : `You are invited to ${invitation.workspace.name}`}
      </Title>
      <Text>
        Join as {roleName(invitation.role)}, with the address <strong>{invitation.email}</strong>.
      </Text>
      {signedInAs === invitation.email ? (
        <Join token={token} invitation={invitation} />
      ) : signedInAs ? (
        <WrongAccount invitation={invitation} signedInAs={signedInAs} />
      ) : invitation.accountExists ? (
        <SignInFirst token={token} invitation={invitation} />
      ) : (
        <CreateAccount token={token} invitation={invitation} />
      )}
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={420} maw="100%">
        <Stack>{children}</Stack>
      </Paper>
    </Center>
  );
}

function LinkNotUsable({ error }: { error: unknown }) {
  const unknownLink = error instanceof ApiError && error.status === 404;
  return (
    <Frame>
      <Title order={1} size="h2">
        This invitation cannot be used
      </Title>
      <ErrorNotice error={unknownLink ? new Error('The link is not valid: check that it was copied whole.') : error} title="Invitation not usable" />
      <Text size="sm" c="dimmed">
        Ask the person who invited you for a new link.
      </Text>
      <Anchor component={Link} to="/">
        Go to kb
      </Anchor>
    </Frame>
  );
}

/** Accepts and goes to the workspace; a new account's session (cookie) is read again first, so the app knows who is signed in. */
function useAccept(token: string, invitation: InvitationPreview) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (body: { name?: string; password?: string }) =>
      data(api.POST('/api/v1/invitations/{token}/accept', { params: { path: { token } }, body })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['session'] });
      await client.invalidateQueries({ queryKey: workspaceKeys.all });
      navigate(`/w/${invitation.workspace.hostname}`, { replace: true });
    },
  });
}

function Join({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const accept = useAccept(token, invitation);
  return (
    <>
      <ErrorNotice error={accept.error} title="Could not join" />
      <Button onClick={() => accept.mutate({})} loading={accept.isPending}>
        Join {invitation.workspace.name}
      </Button>
    </>
  );
}

function WrongAccount({ invitation, signedInAs }: { invitation: InvitationPreview; signedInAs: string }) {
  const { signOut } = useSession();
  return (
    <>
      <Alert color="yellow" variant="light" title="Signed in as someone else">
        You are signed in as {signedInAs}, but this invitation is for {invitation.email}. Sign out, then open the link again as {invitation.email}.
      </Alert>
      <Button variant="default" onClick={() => void signOut()}>
        Sign out
      </Button>
    </>
  );
}

function SignInFirst({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  return (
    <>
      <Text size="sm">There is an account for {invitation.email} already: sign in to it, and you come back here to join.</Text>
      <Button component={Link} to={`/login?next=${encodeURIComponent(`/invite/${token}`)}`}>
        Sign in to accept
      </Button>
    </>
  );
}

function CreateAccount({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const accept = useAccept(token, invitation);
  const fields = accept.error instanceof ApiError ? accept.error.fieldErrors() : {};
  return (
    <FormStack gap="sm" onSubmit={() => accept.mutate({ name, password })}>
      <Text size="sm">Create your account to join.</Text>
      <TextInput label="Email" value={invitation.email} readOnly disabled />
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required autoComplete="name" error={fields.name} />
      <PasswordInput
        label="Password"
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        required
        autoComplete="new-password"
        description="At least 8 characters"
        error={fields.password}
      />
      <ErrorNotice error={Object.keys(fields).length ? null : accept.error} title="Could not create the account" />
      <Button type="submit" loading={accept.isPending}>
        Create account and join
      </Button>
      <Text size="sm" c="dimmed">
        Already have an account for {invitation.email}?{' '}
        <Anchor component={Link} to={`/login?next=${encodeURIComponent(`/invite/${token}`)}`}>
          Sign in
        </Anchor>{' '}
        and you come back here to join.
      </Text>
    </FormStack>
  );
}
