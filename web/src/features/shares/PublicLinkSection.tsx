import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useWorkspaceDetail } from '../settings/settings.queries';
import { paths } from '../workspaces/workspace-context';
import { type ShareSettings, usePageShare, usePublish, useRevokeShare } from './shares.queries';

interface PublicLinkProps {
  workspaceId: string;
  pageId: string;
  hostname: string;
  /** Editors of the page may publish it; workspace admins may also revoke its link. */
  canEdit: boolean;
  isAdmin: boolean;
  /** A restricted page (or one under a restricted page) cannot be published. */
  restricted: boolean;
  onNavigate(): void;
}

/**
 * The Share dialog's public link: create it, copy it, change what it opens, make a new one, revoke it. Only the
 * link's hash is kept by the service, so the link can be copied right after it is made; later, a new link is the way.
 * When the workspace does not allow public pages, it says so, and points admins to the setting.
 */
export function PublicLinkSection({ workspaceId, pageId, hostname, canEdit, isAdmin, restricted, onNavigate }: PublicLinkProps) {
  const workspace = useWorkspaceDetail(workspaceId);
  const allowed = workspace.data?.settings.allowPublicPages === true;
  const share = usePageShare(pageId, allowed && canEdit);
  const publish = usePublish(pageId);
  const revoke = useRevokeShare(pageId);
  const [url, setUrl] = useState<string | null>(null);
  const clipboard = useClipboard({ timeout: 2500 });
  const [optimistic, setOptimistic] = useState<ShareSettings | null>(null);
  const current = share.data ?? null;

  const heading = (
    <Group gap={6}>
      <IconWorld size={16} aria-hidden />
      <Title order={5}>Public link</Title>
    </Group>
  );
  if (workspace.isPending) return null;
  if (!allowed)
    return (
      <Stack gap="xs">
        {heading}
        <Text size="sm" c="dimmed">
          Public links are turned off in this workspace.{' '}
          {isAdmin ? (
            <Anchor component={Link} to={paths.settings(hostname, 'general')} onClick={onNavigate}>
              Turn them on in Settings › General
            </Anchor>
          ) : (
            'Ask a workspace admin to turn them on in Settings › General.'
          )}
        </Text>
      </Stack>
    );
  if (!canEdit)
    return (
      <Stack gap="xs">
        {heading}
        <Text size="sm" c="dimmed">
          Only editors of this page can publish it.
        </Text>
      </Stack>
    );
  if (restricted && !current)
    return (
      <Stack gap="xs">
        {heading}
        <Text size="sm" c="dimmed">
          A restricted page cannot be published: it is meant for the people it names.
        </Text>
      </Stack>
    );

  // What was just chosen shows at once (the box follows the click), then what the service answered.
  const settings: ShareSettings = optimistic ?? { includeSubtree: current?.includeSubtree ?? false, allowIndexing: current?.allowIndexing ?? false };
  const save = (patch: Partial<ShareSettings> & { newLink?: boolean }) => {
    const { newLink, ...choice } = patch;
    if (!newLink) setOptimistic({ ...settings, ...choice });
    publish.mutate(
      { ...settings, ...patch },
      {
        onSuccess: (result) => {
          if (result.url) setUrl(result.url);
        },
        onSettled: () => setOptimistic(null),
      },
    );
  };

  return (
    <Stack gap="xs">
      {heading}
      <Text size="sm" c="dimmed">
        {current ? 'Anyone with the link can read this page, without signing in.' : 'Create a link that anyone can open to read this page, without signing in.'}
      </Text>
      <Checkbox
        label="Include the pages under it"
        checked={settings.includeSubtree}
        disabled={!current || publish.isPending}
        onChange={(e) => save({ includeSubtree: e.currentTarget.checked })}
      />
      <Checkbox
        label="Allow search engines to index it"
        checked={settings.allowIndexing}
        disabled={!current || publish.isPending}
        onChange={(e) => save({ allowIndexing: e.currentTarget.checked })}
      />
      {current && url && (
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput label="Public link" value={url} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
          <Button
            variant={clipboard.copied ? 'light' : 'filled'}
            color={clipboard.copied ? 'teal' : undefined}
            onClick={() => clipboard.copy(url)}
            leftSection={clipboard.copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          >
            {clipboard.copied ? 'Copied' : 'Copy link'}
          </Button>
        </Group>
      )}
      {current && url && (
        <Text size="xs" c="dimmed" role="status" aria-live="polite">
          {clipboard.copied ? 'Link copied to the clipboard.' : 'The link is shown only now: copy it before closing this dialog.'}
        </Text>
      )}
      {current && !url && (
        <Text size="xs" c="dimmed">
          This page has a public link. It is shown only when it is made: to copy it again, make a new link (the current one stops working).
        </Text>
      )}
      <ErrorNotice error={publish.error ?? revoke.error} title="That did not work" />
      <Group gap="xs">
        {!current && (
          <Button variant="default" leftSection={<IconWorld size={14} />} onClick={() => save({})} loading={publish.isPending}>
            Create public link
          </Button>
        )}
        {current && (
          <>
            <Button variant="default" onClick={() => save({ newLink: true })} loading={publish.isPending && publish.variables?.newLink}>
              {url ? 'Make a new link' : 'Make a new link to copy'}
            </Button>
            <Button variant="subtle" color="red" onClick={() => revoke.mutate(current.id, { onSuccess: () => setUrl(null) })} loading={revoke.isPending}>
              Revoke link
            </Button>
          </>
        )}
      </Group>
    </Stack>
  );
}
