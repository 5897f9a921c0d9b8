import { Box, Button, Group, NavLink, Stack, Title } from '@mantine/core';
import {
  IconBell,
  IconBug,
  IconDevices,
  IconFolders,
  IconHistory,
  IconKey,
  IconPlugConnected,
  IconRefresh,
  IconSettings,
  IconUsers,
  IconUsersGroup,
  IconWebhook,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Route, Routes, useLocation } from 'react-router';
import { IndexRedirect } from '../../ui/IndexRedirect';
import { AuditLogSection } from '../audit/AuditLogSection';
import { NotificationPreferencesSection } from '../notifications/NotificationPreferencesSection';
import { ConnectedAppsSection } from '../oauth/ConnectedAppsSection';
import { WebhooksSection } from '../webhooks/WebhooksSection';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { ApiKeysSection } from './ApiKeysSection';
import { BugReportsSection } from './BugReportsSection';
import { GeneralSection } from './GeneralSection';
import { GroupsSection } from './GroupsSection';
import { MembersSection } from './MembersSection';
import { SessionsSection } from './SessionsSection';
import { SpacesSection } from './SpacesSection';
import { SyncSection } from './SyncSection';

interface Section {
  slug: string;
  label: string;
  icon: ReactNode;
  element: ReactNode;
}

/** The sections a caller may open: bug reports are for workspace admins only, so others never see the entry. */
function sectionsFor(role: string | null | undefined): Section[] {
  const all: (Section & { adminOnly?: boolean })[] = [
    { slug: 'general', label: 'General', icon: <IconSettings size={16} />, element: <GeneralSection /> },
    { slug: 'members', label: 'Members', icon: <IconUsers size={16} />, element: <MembersSection /> },
    { slug: 'spaces', label: 'Spaces', icon: <IconFolders size={16} />, element: <SpacesSection /> },
    { slug: 'groups', label: 'Groups', icon: <IconUsersGroup size={16} />, element: <GroupsSection /> },
    { slug: 'api-keys', label: 'API keys', icon: <IconKey size={16} />, element: <ApiKeysSection /> },
    { slug: 'connected-apps', label: 'Connected apps', icon: <IconPlugConnected size={16} />, element: <ConnectedAppsSection /> },
    { slug: 'sessions', label: 'Sessions', icon: <IconDevices size={16} />, element: <SessionsSection /> },
    { slug: 'notifications', label: 'Notifications', icon: <IconBell size={16} />, element: <NotificationPreferencesSection /> },
    { slug: 'sync', label: 'Sync', icon: <IconRefresh size={16} />, element: <SyncSection /> },
    { slug: 'bug-reports', label: 'Bug reports', icon: <IconBug size={16} />, element: <BugReportsSection />, adminOnly: true },
    { slug: 'audit-log', label: 'Audit log', icon: <IconHistory size={16} />, element: <AuditLogSection />, adminOnly: true },
    { slug: 'webhooks', label: 'Webhooks', icon: <IconWebhook size={16} />, element: <WebhooksSection />, adminOnly: true },
  ];
  return all.filter((s) => !s.adminOnly || role === 'admin');
}

/** Workspace settings: a menu of sections (beside the content on wide screens, above it on phones), one route each. */
export default function SettingsScreen() {
  const workspace = useWorkspace();
  const location = useLocation();
  const sections = sectionsFor(workspace.role);
  const base = paths.settings(workspace.hostname);
  const isActive = (slug: string) => location.pathname === `${base}/${slug}` || location.pathname.startsWith(`${base}/${slug}/`);
  return (
    <Stack gap="md">
      <Title order={1}>Settings</Title>
      <Group align="flex-start" gap="xl" wrap="nowrap">
        <Box component="nav" aria-label="Settings sections" w={200} visibleFrom="sm" style={{ flexShrink: 0 }}>
          {sections.map((s) => (
            <NavLink
              key={s.slug}
              component={Link}
              to={`${base}/${s.slug}`}
              label={s.label}
              leftSection={s.icon}
              active={isActive(s.slug)}
              aria-current={isActive(s.slug) ? 'page' : undefined}
            />
          ))}
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Box component="nav" aria-label="Settings sections" hiddenFrom="sm" mb="md">
            <Group gap={6}>
              {sections.map((s) => (
                <Button
                  key={s.slug}
                  component={Link}
                  to={`${base}/${s.slug}`}
                  size="compact-sm"
                  variant={isActive(s.slug) ? 'filled' : 'default'}
                  leftSection={s.icon}
                  aria-current={isActive(s.slug) ? 'page' : undefined}
                >
                  {s.label}
                </Button>
              ))}
            </Group>
          </Box>
          <Routes>
            <Route index element={<IndexRedirect to="general" />} />
            {sections.map((s) => (
              <Route key={s.slug} path={`${s.slug}/*`} element={s.element} />
            ))}
            <Route path="*" element={<IndexRedirect to="general" />} />
          </Routes>
        </Box>
      </Group>
    </Stack>
  );
}
