import { Checkbox, Stack, Table, Text, Title } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { PREFERENCE_KINDS, type PreferenceKind, usePreferences, useSavePreferences } from './notifications.queries';

const KIND_WORDS: Record<PreferenceKind, { label: string; hint: string }> = {
  mention: { label: 'Mentions', hint: 'Someone @mentions you in a page or a comment' },
  reply: { label: 'Replies', hint: 'Someone replies in a comment thread you are in' },
  assigned: { label: 'Assigned tasks', hint: 'A task is assigned to you' },
  watch: { label: 'Watched pages and spaces', hint: 'A page or space you watch changes' },
};

type Channel = 'inApp' | 'email';

/** Settings › Notifications: per kind, in the app (the bell) and by email. The person's own, in every workspace. */
export function NotificationPreferencesSection() {
  const prefs = usePreferences();
  const save = useSavePreferences();
  // A box shows its new state at once, kept here until the saved preferences agree (a refusal puts the old one back).
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const saved = (kind: PreferenceKind, channel: Channel) => prefs.data?.kinds[kind]?.[channel] ?? false;
  const shown = (kind: PreferenceKind, channel: Channel) => chosen[`${kind}.${channel}`] ?? saved(kind, channel);
  useEffect(() => {
    if (!prefs.data) return;
    const kinds = prefs.data.kinds;
    setChosen((c) =>
      Object.fromEntries(
        Object.entries(c).filter(([key, v]) => {
          const [kind, channel] = key.split('.') as [PreferenceKind, Channel];
          return kinds[kind]?.[channel] !== v;
        }),
      ),
    );
  }, [prefs.data]);

  const forget = (key: string) =>
    setChosen((c) => {
      const { [key]: _dropped, ...rest } = c;
      return rest;
    });
  const change = (kind: PreferenceKind, channel: Channel, value: boolean) => {
    const key = `${kind}.${channel}`;
    setChosen((c) => ({ ...c, [key]: value }));
    save.mutate(
      { [kind]: { [channel]: value } },
      {
        onError: (err) => {
          forget(key);
          toasts.show({ color: 'red', title: 'The preference was not saved', message: messageOf(err) });
        },
      },
    );
  };

  return (
    <Stack gap="md" maw={640}>
      <Title order={2}>Notifications</Title>
      <Text c="dimmed" size="sm">
        What you hear about, in the bell at the top and by email. These are yours and apply in every workspace. Email comes as a digest, and only when this
        server is set up to send mail.
      </Text>
      <ErrorNotice error={prefs.error} title="Your preferences could not load" />
      {prefs.isPending && <ScreenLoader />}
      {prefs.data && (
        <Table aria-label="Notification preferences" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Notify me of</Table.Th>
              <Table.Th w={90} ta="center">
                In app
              </Table.Th>
              <Table.Th w={90} ta="center">
                Email
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PREFERENCE_KINDS.map((kind) => (
              <Table.Tr key={kind}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {KIND_WORDS[kind].label}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {KIND_WORDS[kind].hint}
                  </Text>
                </Table.Td>
                {(['inApp', 'email'] as const).map((channel) => (
                  <Table.Td key={channel}>
                    <Checkbox
                      mx="auto"
                      w="fit-content"
                      aria-label={`${KIND_WORDS[kind].label}: ${channel === 'inApp' ? 'in app' : 'email'}`}
                      checked={shown(kind, channel)}
                      onChange={(e) => change(kind, channel, e.currentTarget.checked)}
                    />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
