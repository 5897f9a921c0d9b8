import { ActionIcon, Center, Drawer, Indicator, Loader, Popover, Tooltip } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useWorkspace } from '../workspaces/workspace-context';
import { useUnreadCount } from './notifications.queries';
import { useNotificationStream } from './notifications.stream';

// The list loads on the first open: the shell carries only the bell and its count.
const NotificationPanel = lazy(() => import('./NotificationPanel'));

/** While the live stream is down (or the browser has none), the count is read every 30 s instead. */
const POLL_MS = 30_000;

const panelLoading = (
  <Center py="md">
    <Loader size="sm" aria-label="Loading notifications" />
  </Center>
);

const badge = (count: number) => (count > 99 ? '99+' : String(count));

/** The header's bell: the unread count, live; a popover with the list (a drawer from the bottom on phones). */
export function NotificationBell() {
  const workspace = useWorkspace();
  const { connected } = useNotificationStream(workspace.id);
  const count = useUnreadCount(workspace.id, connected ? false : POLL_MS).data ?? 0;
  const [opened, panel] = useDisclosure(false);
  const phone = useMediaQuery('(max-width: 48em)');
  const label = count > 0 ? `Notifications, ${count} unread` : 'Notifications';

  const bell = (
    <Tooltip label="Notifications" disabled={opened}>
      <ActionIcon variant="subtle" aria-label={label} aria-expanded={opened} aria-haspopup="dialog" onClick={panel.toggle}>
        <Indicator label={badge(count)} size={15} disabled={count === 0} color="red" offset={2} inline aria-hidden>
          <IconBell size={18} />
        </Indicator>
      </ActionIcon>
    </Tooltip>
  );

  if (phone)
    return (
      <>
        {bell}
        <Drawer opened={opened} onClose={panel.close} position="bottom" size="85%" title="Notifications" withCloseButton>
          <Suspense fallback={panelLoading}>
            <NotificationPanel onNavigate={panel.close} maxHeight="calc(85vh - 120px)" titled={false} />
          </Suspense>
        </Drawer>
      </>
    );
  return (
    <Popover opened={opened} onDismiss={panel.close} position="bottom-end" width={380} shadow="md" withinPortal trapFocus>
      <Popover.Target>{bell}</Popover.Target>
      <Popover.Dropdown p="xs" role="dialog" aria-label="Notifications">
        <Suspense fallback={panelLoading}>
          <NotificationPanel onNavigate={panel.close} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
