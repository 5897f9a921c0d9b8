import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { announceSingleSignOnError, SingleSignOnButton, SingleSignOnError, useSignInProviders } from './SingleSignOn';
import { useSession } from './session';

/** Sign in and sign up: one form, two modes. After either, back to where the person was going. */
export function AuthScreen({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const { user, signIn, signUp } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const next = query.get('next') ?? '/';
  const providers = useSignInProviders();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const ssoError = query.get('sso_error');
  useEffect(() => {
    if (user && ssoError) announceSingleSignOnError(ssoError);
  }, [user, ssoError]);
  if (user) return <Navigate to={next.startsWith('/') && !next.startsWith('//') ? next : '/'} replace />;

  const fields = error instanceof ApiError ? error.fieldErrors() : {};
  const signingUp = mode === 'sign-up';
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (signingUp) await signUp(name, email, password);
      else await signIn(email, password);
      navigate(next, { replace: true });
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
            {signingUp ? 'Create your account' : 'Sign in to kb'}
          </Title>
          <SingleSignOnError reason={ssoError} />
          {providers.oidc && <SingleSignOnButton oidc={providers.oidc} next={next} withPassword={providers.password} />}
          {providers.password && (
            <>
              {signingUp && (
                <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required autoComplete="name" error={fields.name} />
              )}
              <TextInput
                label="Email"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                required
                autoComplete="email"
                error={fields.email}
              />
              <PasswordInput
                label="Password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                required
                autoComplete={signingUp ? 'new-password' : 'current-password'}
                description={signingUp ? 'At least 8 characters' : undefined}
                error={fields.password}
              />
              <ErrorNotice error={Object.keys(fields).length ? null : error} title={signingUp ? 'Could not sign up' : 'Could not sign in'} />
              <Button type="submit" loading={busy}>
                {signingUp ? 'Sign up' : 'Sign in'}
              </Button>
              <Text size="sm" c="dimmed">
                {signingUp ? 'Already have an account? ' : 'New here? '}
                <Anchor component={Link} to={`${signingUp ? '/login' : '/signup'}${location.search}`}>
                  {signingUp ? 'Sign in' : 'Create an account'}
                </Anchor>
              </Text>
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
