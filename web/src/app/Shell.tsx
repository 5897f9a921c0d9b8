import {
  ActionIcon,
  AppShell,
  Avatar,
  Burger,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Text,
  Tooltip,
  UnstyledButton,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconCheck,
  IconChevronDown,
  IconFlask,
  IconKeyboard,
  IconListCheck,
  IconLogout,
  IconMoon,
  IconPlus,
  IconSettings,
  IconSun,
  IconTarget,
} from '@tabler/icons-react';
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../features/auth/session';
import { openShortcutSheet, ShortcutSheet } from '../features/help/ShortcutSheet';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { prefetchPageScreenWhenIdle } from '../features/pages/prefetch';
import { SearchLauncher } from '../features/search/SearchLauncher';
import { SpacesNav } from '../features/spaces/SpacesNav';
import { rememberWorkspace } from '../features/workspaces/HomeRedirect';
import { paths, useWorkspace } from '../features/workspaces/workspace-context';
import { useWorkspaces } from '../features/workspaces/workspaces.queries';
import { LazyMenu } from '../ui/LazyMenu';
import { ScreenLoader } from '../ui/ScreenLoader';

function WorkspaceSwitcher() {
  const current = useWorkspace();
  const workspaces = useWorkspaces();
  const navigate = useNavigate();
  return (
    <LazyMenu
      position="bottom-start"
      width={260}
      target={
        // The name takes what the header leaves (on a 375 px phone ~150 px, in 14 px type: "Acme Engineering") and ends in "…" past it.
        <UnstyledButton aria-label={`Workspace: ${current.name}. Switch workspace`} px={6} py={4} style={{ borderRadius: 6, minWidth: 0, maxWidth: '100%' }}>
          <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
            <Text fw={700} fz={{ base: 'sm', xs: 'md' }} truncate maw={{ base: '100%', sm: 280 }} style={{ minWidth: 0 }}>
              {current.name}
            </Text>
            <IconChevronDown size={14} aria-hidden style={{ flexShrink: 0 }} />
          </Group>
        </UnstyledButton>
      }
    >
      <Menu.Dropdown>
        <Menu.Label>Workspaces</Menu.Label>
        {(workspaces.data ?? []).map((w) => (
          <Menu.Item key={w.id} onClick={() => navigate(paths.workspace(w.hostname))} rightSection={w.id === current.id ? <IconCheck size={14} /> : null}>
            {w.name}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item leftSection={<IconPlus size={14} />} onClick={() => navigate('/new-workspace')}>
          New workspace
        </Menu.Item>
      </Menu.Dropdown>
    </LazyMenu>
  );
}

function UserMenu() {
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const { colorScheme, toggleColorScheme } = useMantineColorScheme();
  const dark = colorScheme === 'dark';
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={dark ? 'Light theme' : 'Dark theme'}>
        <ActionIcon variant="subtle" aria-label={dark ? 'Use light theme' : 'Use dark theme'} onClick={toggleColorScheme}>
          {dark ? <IconSun size={18} /> : <IconMoon size={18} />}
        </ActionIcon>
      </Tooltip>
      <LazyMenu
        position="bottom-end"
        target={
          // Initials always; the name too from 768 px up (on a phone it would push the header past the screen). Named by
          // its content, not aria-label: a label that left out the initials shown would fail "label in name" (WCAG 2.5.3).
          <UnstyledButton px={2} py={2} style={{ borderRadius: 6, flexShrink: 0 }}>
            <VisuallyHidden>Account: {user?.name ?? ''}</VisuallyHidden>
            <Group gap={6} wrap="nowrap" aria-hidden>
              <Avatar name={user?.name} color="blue" size={28} />
              <Text size="sm" truncate maw={140} visibleFrom="sm">
                {user?.name}
              </Text>
            </Group>
          </UnstyledButton>
        }
      >
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
              {user?.name}
            </Text>
            {user?.email}
          </Menu.Label>
          <Menu.Item leftSection={<IconKeyboard size={14} />} onClick={openShortcutSheet}>
            Keyboard shortcuts
          </Menu.Item>
          <Menu.Item
            leftSection={<IconLogout size={14} />}
            onClick={async () => {
              await signOut();
              navigate('/login');
            }}
          >
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </LazyMenu>
    </Group>
  );
}

/** The frame around every workspace screen: header, sidebar (collapses to a drawer below 768 px), content. */
export function Shell() {
  const workspace = useWorkspace();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const ws = workspace.hostname;
  useEffect(() => rememberWorkspace(ws), [ws]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the mobile sidebar on navigation
  useEffect(() => close(), [location.pathname]);
  // Screens with a page tree ask for the page screen's code once the tree shows (PageTree); the others, a moment later.
  useEffect(() => prefetchPageScreenWhenIdle(1500), []);
  const active = (path: string) => location.pathname.startsWith(path);
  return (
    <AppShell header={{ height: 52 }} navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px={{ base: 6, xs: 'sm' }} justify="space-between" wrap="nowrap" gap={4}>
          <Group gap={4} wrap="nowrap" miw={0} style={{ flex: 1 }}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close sidebar' : 'Open sidebar'}
              style={{ flexShrink: 0 }}
            />
            <WorkspaceSwitcher />
          </Group>
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            <SearchLauncher />
            <NotificationBell />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar aria-label="Sidebar">
        <AppShell.Section p="xs">
          <NavLink component={Link} to={`${paths.tasks(ws)}/board`} label="Tasks" leftSection={<IconListCheck size={16} />} active={active(paths.tasks(ws))} />
          <NavLink component={Link} to={paths.goals(ws)} label="Goals" leftSection={<IconTarget size={16} />} active={active(paths.goals(ws))} />
          <NavLink component={Link} to={paths.research(ws)} label="Research" leftSection={<IconFlask size={16} />} active={active(paths.research(ws))} />
          <NavLink
            component={Link}
            to={`${paths.settings(ws)}/general`}
            label="Settings"
            leftSection={<IconSettings size={16} />}
            active={active(paths.settings(ws))}
          />
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea} px="xs" pb="xs">
          <SpacesNav key={workspace.id} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<ScreenLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <ShortcutSheet />
    </AppShell>
  );
}
