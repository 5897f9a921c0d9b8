import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { toApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { fieldErrorsOf } from '../settings/form-errors';
import { useSession } from './session';

/** The page of a password-reset link: a new password, twice; the service signs every other session out and this browser in. */
export function ResetPasswordScreen() {
  const { token = '' } = useParams();
  const { adoptSession } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const mismatch = repeated.length > 0 && repeated !== password;
  const fields = fieldErrorsOf(error);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== repeated) return;
    setBusy(true);
    setError(null);
    try {
      const { data, error: failure, response } = await api.POST('/api/v1/auth/password-reset', { body: { token, newPassword: password, session: 'cookie' } });
      if (!data?.data.csrfToken) throw toApiError(response.status, failure);
      adoptSession(data.data.user, data.data.csrfToken);
      navigate('/', { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper component="form" onSubmit={submit} withBorder shadow="sm" p="xl" radius="md" w={380} maw="100%">
        <Stack>
          <Title order={1} size="h2">
            Set a new password
          </Title>
          <Text size="sm" c="dimmed">
            This signs you out on every other device and signs you in here.
          </Text>
          <PasswordInput
            label="New password"
            description="At least 8 characters"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="new-password"
            error={fields.newPassword}
            required
            data-autofocus
          />
          <PasswordInput
            label="Repeat the new password"
            value={repeated}
            onChange={(e) => setRepeated(e.currentTarget.value)}
            autoComplete="new-password"
            error={mismatch ? 'The two passwords differ' : undefined}
            required
          />
          <ErrorNotice error={fields.newPassword ? null : error} title="Could not set the password" />
          <Button type="submit" loading={busy} disabled={!password || password !== repeated}>
            Set password and sign in
          </Button>
          <Text size="sm" c="dimmed">
            <Anchor component={Link} to="/login">
              Back to sign in
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
