import { Alert, Button, Checkbox, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { type Share, type ShareSettings, usePublish, useRevokeShare } from './shares.queries';

interface PublishModalProps {
  opened: boolean;
  onClose(): void;
  pageId: string;
  name: string;
  share: Share | null;
}

const DEFAULTS: ShareSettings = { includeSubtree: false, allowIndexing: false };

/**
 * Publish a page to anyone with the link: choose whether the pages under it go too and whether search engines may
 * index it; copy the link; unpublish, or make a new link. The link is shown only when it is made (the service keeps
 * only its hash), so a new link is the way to copy it again later.
 */
export function PublishModal({ opened, onClose, pageId, name, share }: PublishModalProps) {
  const [settings, setSettings] = useState<ShareSettings>(DEFAULTS);
  const [url, setUrl] = useState<string | null>(null);
  const publish = usePublish(pageId);
  const revoke = useRevokeShare(pageId);
  useEffect(() => {
    if (opened) setSettings(share ? { includeSubtree: share.includeSubtree, allowIndexing: share.allowIndexing } : DEFAULTS);
  }, [opened, share]);
  const set = (patch: Partial<ShareSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const changed = share !== null && (share.includeSubtree !== settings.includeSubtree || share.allowIndexing !== settings.allowIndexing);
  const save = (newLink = false) =>
    publish.mutate(
      { ...settings, newLink },
      {
        onSuccess: (result) => {
          if (result.url) setUrl(result.url);
        },
      },
    );
  const unpublish = () => {
    if (share) revoke.mutate(share.id, { onSuccess: () => setUrl(null) });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Publish “${name || 'Untitled'}”`} centered>
      <Stack>
        <Text size="sm">
          {share
            ? 'This page is published: anyone with the link can read it, without signing in.'
            : 'Anyone with the link will be able to read this page, without signing in.'}
        </Text>
        <Checkbox label="Include the pages under it" checked={settings.includeSubtree} onChange={(e) => set({ includeSubtree: e.currentTarget.checked })} />
        <Checkbox label="Allow search engines to index it" checked={settings.allowIndexing} onChange={(e) => set({ allowIndexing: e.currentTarget.checked })} />
        {share && url && (
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput label="Public link" value={url} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Group>
        )}
        {share && !url && (
          <Alert variant="light" color="gray">
            The link was shown when it was made and is not kept. To copy it again, make a new link: the current one stops working.
          </Alert>
        )}
        <ErrorNotice error={publish.error ?? revoke.error} title="That did not work" />
        <Group justify="space-between">
          {share ? (
            <Group gap="xs">
              <Button variant="subtle" color="red" onClick={unpublish} loading={revoke.isPending}>
                Unpublish
              </Button>
              <Button variant="default" onClick={() => save(true)} loading={publish.isPending && publish.variables?.newLink}>
                Make a new link
              </Button>
            </Group>
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {share ? 'Done' : 'Cancel'}
            </Button>
            {!share && (
              <Button onClick={() => save()} loading={publish.isPending}>
                Publish
              </Button>
            )}
            {changed && (
              <Button onClick={() => save()} loading={publish.isPending && !publish.variables?.newLink}>
                Save settings
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
