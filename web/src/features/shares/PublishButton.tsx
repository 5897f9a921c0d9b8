import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconWorld } from '@tabler/icons-react';
import { useWorkspaceDetail } from '../settings/settings.queries';
import { PublishModal } from './PublishModal';
import { usePageShare } from './shares.queries';

/**
 * The page's "Publish" action (editors): opens the dialog that publishes the page through a public link. Shown as
 * "Published" while the page has a link; hidden when the workspace does not allow public pages.
 */
export function PublishButton({ workspaceId, pageId, name }: { workspaceId: string; pageId: string; name: string }) {
  const workspace = useWorkspaceDetail(workspaceId);
  const allowed = workspace.data?.settings.allowPublicPages === true;
  const share = usePageShare(pageId, allowed);
  const [opened, modal] = useDisclosure(false);
  if (!allowed) return null;
  const published = Boolean(share.data);
  return (
    <>
      <Button
        variant={published ? 'light' : 'default'}
        color={published ? 'teal' : undefined}
        size="xs"
        leftSection={<IconWorld size={14} />}
        onClick={modal.open}
        aria-label={published ? 'Published: manage the public link' : 'Publish'}
      >
        {published ? 'Published' : 'Publish'}
      </Button>
      <PublishModal opened={opened} onClose={modal.close} pageId={pageId} name={name} share={share.data ?? null} />
    </>
  );
}
