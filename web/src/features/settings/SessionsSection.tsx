import { Badge, Button, Group, PasswordInput, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { ItemTable } from '../../ui/ItemTable';
import { EmailVerification } from '../auth/EmailVerification';
import { useSession } from '../auth/session';
import { ConfirmModal } from './ConfirmModal';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { shortDate } from './settings.queries';

interface SessionRow {
  id: string;
  device: string;
  userAgent: string | null;
  address: string | null;
  lastSeenAt: string;
  createdAt: string;
  current: boolean;
}

const SESSIONS_KEY = ['settings', 'sessions'] as const;

/** Date and time to the minute: "last seen" is kept to the minute. */
const dateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function useSessions() {
  return useQuery({ queryKey: SESSIONS_KEY, queryFn: async () => (await data(api.GET('/api/v1/auth/sessions'))) as SessionRow[] });
}

/** Where the caller is signed in (device, address, last seen), signing any of them out, and changing the password. */
export function SessionsSection() {
  const sessions = useSessions();
  const client = useQueryClient();
  const { signOut } = useSession();
  const [ending, setEnding] = useState<SessionRow | 'others' | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: SESSIONS_KEY });
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  const end = async () => {
    if (ending === 'others') {
      const { revoked } = await data(api.DELETE('/api/v1/auth/sessions', { params: { query: { keepCurrent: 'true' } } }));
      notifications.show({ color: 'green', message: `${revoked} other session${revoked === 1 ? '' : 's'} signed out` });
    } else if (ending?.current) {
      await signOut();
      return;
    } else if (ending) {
      await data(api.DELETE('/api/v1/auth/sessions/{id}', { params: { path: { id: ending.id } } }));
      notifications.show({ color: 'green', message: `${ending.device} signed out` });
    }
    await refresh();
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Sessions</Title>
        <Button variant="light" color="red" disabled={others === 0} onClick={() => setEnding('others')}>
          Sign out all other sessions
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Everywhere you are signed in. Signing a session out ends it at once; API keys are not sessions and keep working.
      </Text>
      <ItemTable
        items={sessions.data}
        loading={sessions.isPending}
        error={sessions.error}
        minWidth={560}
        label="Sessions"
        columns={['Device', 'Address', 'Last seen', 'Signed in']}
        actions
        rowKey={(s) => s.id}
      >
        {(s) => (
          <>
            <Table.Td>
              <Tooltip label={s.userAgent ?? 'No user agent'} multiline maw={360}>
                <Text span size="sm">
                  {s.device}
                </Text>
              </Tooltip>
              {s.current && (
                <Badge ml="xs" variant="light" color="green">
                  This device
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{s.address ?? '—'}</Table.Td>
            <Table.Td>{dateTime(s.lastSeenAt)}</Table.Td>
            <Table.Td>{shortDate(s.createdAt)}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="light"
                color="red"
                aria-label={`Sign out ${s.device}${s.current ? ' (this device)' : ''}`}
                onClick={() => setEnding(s)}
              >
                Sign out
              </Button>
            </Table.Td>
          </>
        )}
      </ItemTable>
      <ConfirmModal
        opened={ending !== null}
        onClose={() => setEnding(null)}
        title={ending === 'others' ? 'Sign out all other sessions' : 'Sign out session'}
        confirmLabel="Sign out"
        onConfirm={end}
      >
        {ending === 'others'
          ? `Every other device signed in to your account (${others}) will have to sign in again.`
          : ending?.current
            ? 'You will be signed out of this browser.'
            : `${ending?.device ?? 'That device'} will have to sign in again.`}
      </ConfirmModal>
      <EmailVerification />
      <ChangePassword onChanged={refresh} />
    </Stack>
  );
}

/** Current and new password; a change signs out every other session, so the list is read again. */
function ChangePassword({ onChanged }: { onChanged(): Promise<unknown> }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const change = useMutation({
    mutationFn: async () => data(api.POST('/api/v1/users/me/password', { body: { currentPassword, newPassword } })),
    onSuccess: async ({ sessionsRevoked }) => {
      notifications.show({
        color: 'green',
        message: sessionsRevoked ? `Password changed; ${sessionsRevoked} other session${sessionsRevoked === 1 ? '' : 's'} signed out` : 'Password changed',
      });
      setCurrentPassword('');
      setNewPassword('');
      await onChanged();
    },
  });
  const errors = fieldErrorsOf(change.error);
  return (
    <FormStack gap="xs" maw={420} aria-label="Change password" onSubmit={() => change.mutate()}>
      <Title order={3}>Change password</Title>
      <Text size="sm" c="dimmed">
        Changing it signs out every other session. Accounts that use single sign-on get a password through a reset link from an admin.
      </Text>
      <PasswordInput
        label="Current password"
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.currentTarget.value)}
        autoComplete="current-password"
        error={errors.currentPassword}
        required
      />
      <PasswordInput
        label="New password"
        description="At least 8 characters"
        value={newPassword}
        onChange={(e) => setNewPassword(e.currentTarget.value)}
        autoComplete="new-password"
        error={errors.newPassword}
        required
      />
      <ErrorNotice error={formLevelError(change.error, ['currentPassword', 'newPassword'])} title="Could not change the password" />
      <Group>
        <Button type="submit" loading={change.isPending}>
          Change password
        </Button>
      </Group>
    </FormStack>
  );
}
