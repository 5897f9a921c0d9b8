import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUsers } from '@tabler/icons-react';
import { type SharedPage, ShareModal } from './ShareModal';

/** The page header's "Share" action: opens who has access and why, and (for editors and workspace admins) the page's restriction. */
export function ShareButton({ page, canManage }: { page: SharedPage; canManage: boolean }) {
  const [opened, modal] = useDisclosure(false);
  return (
    <>
      <Button variant="default" size="xs" leftSection={<IconUsers size={14} />} onClick={modal.open}>
        Share
      </Button>
      <ShareModal opened={opened} onClose={modal.close} page={page} canManage={canManage} />
    </>
  );
}
