import { Alert, Button, Divider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';

export interface SignInProviders {
  /** Email and password sign-in and signup are open (false with OIDC_ONLY). */
  password: boolean;
  oidc: { name: string; startUrl: string } | null;
}

/** The ways to sign in this service offers; while unknown, the password form alone (what every service has unless told otherwise). */
export function useSignInProviders(): SignInProviders {
  const query = useQuery({
    queryKey: ['auth-providers'],
    queryFn: () => data(api.GET('/api/v1/auth/providers')),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return query.data ?? { password: true, oidc: null };
}

/** "Sign in with <provider>": a plain link, since the provider's pages take over the whole window; the main action when it is the only way in. */
export function SingleSignOnButton({ oidc, next, withPassword }: { oidc: { name: string; startUrl: string }; next: string; withPassword: boolean }) {
  const href = `${oidc.startUrl}?${new URLSearchParams({ returnTo: next })}`;
  return (
    <>
      <Button component="a" href={href} variant={withPassword ? 'default' : 'filled'}>
        Sign in with {oidc.name}
      </Button>
      {withPassword && <Divider label="or with your email" labelPosition="center" />}
    </>
  );
}

/** What each `sso_error` reason of the callback means to the person who just came back from the provider. */
const SSO_ERRORS: Record<string, string> = {
  attempt_expired: 'The sign-in took too long or began in another browser. Please try again.',
  state_mismatch: 'The answer from the sign-in provider did not match this browser’s request. Please try again.',
  nonce_mismatch: 'The answer from the sign-in provider did not match this browser’s request. Please try again.',
  code_rejected: 'The sign-in code expired or was already used. Please try again.',
  provider_error: 'The sign-in provider refused the sign-in.',
  provider_unavailable: 'The sign-in provider cannot be reached right now. Please try again shortly.',
  email_missing: 'The sign-in provider did not share your email address, which kb needs.',
  email_not_verified:
    'An account with your email exists, but the sign-in provider has not verified that email, so they cannot be linked. Verify your email with the provider, or sign in with your password.',
  domain_not_allowed: 'Accounts for your email domain cannot be created here. Ask an administrator to invite you.',
  sso_disabled: 'Single sign-on is not set up on this service.',
};

const ssoErrorMessage = (reason: string) => SSO_ERRORS[reason] ?? 'Single sign-on failed. Please try again.';

export function SingleSignOnError({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <Alert color="red" title="Could not sign in" role="alert" variant="light">
      {ssoErrorMessage(reason)}
    </Alert>
  );
}

/**
 * A refused single sign-on for someone already signed in (another account, or a second tab): the sign-in screen is
 * skipped for them, so the reason is told in a notification that stays until closed, on whatever screen follows.
 */
export function announceSingleSignOnError(reason: string) {
  notifications.show({ id: 'sso-error', color: 'red', title: 'Single sign-on did not complete', message: ssoErrorMessage(reason), autoClose: false });
}
