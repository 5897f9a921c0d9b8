import { Avatar, Box, Button, Center, Group, Loader, ScrollArea, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { fullTime, timeAgo } from '../comments/relative-time';
import { useWorkspace } from '../workspaces/workspace-context';
import { targetPathOf } from './notification-target';
import { plainSentence, sentenceOf } from './notification-words';
import { type AppNotification, useMarkAllRead, useMarkRead, useNotifications } from './notifications.queries';

function NotificationRow({ n, onOpen }: { n: AppNotification; onOpen: (n: AppNotification) => void }) {
  const s = sentenceOf(n);
  const unread = !n.readAt;
  return (
    <UnstyledButton
      onClick={() => onOpen(n)}
      aria-label={`${plainSentence(n)}, ${timeAgo(n.createdAt)}${unread ? ', unread' : ''}`}
      px="sm"
      py={8}
      style={{ borderRadius: 6, background: unread ? 'var(--mantine-color-blue-light)' : undefined, display: 'block', width: '100%' }}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar name={n.actor?.name ?? '?'} color="blue" size={28} aria-hidden />
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" lineClamp={2} fw={unread ? 500 : 400}>
            {s.before}
            <Text span fw={700} inherit>
              {s.title}
            </Text>
            {s.after}
          </Text>
          <Text size="xs" c="dimmed" title={fullTime(n.createdAt)}>
            {timeAgo(n.createdAt)}
          </Text>
        </Box>
        {unread && <Box aria-hidden w={8} h={8} mt={8} style={{ borderRadius: 4, background: 'var(--mantine-color-blue-filled)', flexShrink: 0 }} />}
      </Group>
    </UnstyledButton>
  );
}

/** The bell's list: unread first, each row leads to its page or task and is marked read; "Mark all read"; "Load more". */
export default function NotificationPanel({ onNavigate, maxHeight, titled = true }: { onNavigate: () => void; maxHeight?: number | string; titled?: boolean }) {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const client = useQueryClient();
  const list = useNotifications(workspace.id, true);
  const markRead = useMarkRead(workspace.id);
  const markAll = useMarkAllRead(workspace.id);
  const items = list.data?.pages.flatMap((p) => p.data) ?? [];
  const unread = list.data?.pages[0]?.meta.unreadCount ?? items.filter((n) => !n.readAt).length;
  const anyUnread = unread > 0 || items.some((n) => !n.readAt);

  const open = async (n: AppNotification) => {
    if (!n.readAt) markRead.mutate(n.id);
    try {
      const to = await targetPathOf(client, workspace, n);
      if (to) {
        onNavigate();
        navigate(to);
      }
    } catch (err) {
      toasts.show({ color: 'red', title: 'This notification’s page could not be opened', message: messageOf(err) });
    }
  };

  return (
    <Stack gap="xs">
      <Group justify={titled ? 'space-between' : 'flex-end'} wrap="nowrap">
        {titled && (
          <Title order={2} size="h5">
            Notifications
          </Title>
        )}
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconChecks size={14} aria-hidden />}
          disabled={!anyUnread}
          loading={markAll.isPending}
          onClick={() => markAll.mutate(undefined, { onError: (err) => toasts.show({ color: 'red', message: messageOf(err) }) })}
        >
          Mark all read
        </Button>
      </Group>
      <ErrorNotice error={list.error} title="Notifications could not load" />
      {list.isPending && (
        <Center py="md">
          <Loader size="sm" aria-label="Loading notifications" />
        </Center>
      )}
      {list.isSuccess && items.length === 0 && (
        <Stack align="center" gap={4} py="lg">
          <IconBellOff size={28} aria-hidden />
          <Text size="sm" c="dimmed" ta="center">
            Nothing yet. Mentions, replies, tasks assigned to you and changes to what you watch show up here.
          </Text>
        </Stack>
      )}
      {items.length > 0 && (
        <ScrollArea.Autosize mah={maxHeight ?? 420} type="auto" offsetScrollbars>
          <Stack gap={2} component="ul" aria-label="Notifications" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((n) => (
              <li key={n.id}>
                <NotificationRow n={n} onOpen={(x) => void open(x)} />
              </li>
            ))}
          </Stack>
          {list.hasNextPage && (
            <Center pt="xs">
              <Button size="compact-sm" variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                Load more
              </Button>
            </Center>
          )}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
