import { ActionIcon, Button, Group, Menu, Modal, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconDots, IconFileImport, IconFileZip, IconHistory, IconLink, IconStar, IconStarFilled, IconTemplate, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ExportModal } from '../exports/ExportModal';
import { ImportModal } from '../imports/ImportModal';
import { SaveAsTemplateModal } from '../templates/SaveAsTemplateModal';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { pageKeys, slugOfTitle } from './pages.queries';
import { personalKeys, useFavorites } from './personal.queries';

interface PageRef {
  id: string;
  workspaceId: string;
  spaceId: string;
}

/** The star: adds the page to the person's favourites (listed in the sidebar), or takes it out. */
export function FavoriteButton({ page }: { page: PageRef }) {
  const favorites = useFavorites(page.workspaceId);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const starred = Boolean(favorites.data?.some((f) => f.id === page.id));
  const label = starred ? 'Remove from favourites' : 'Add to favourites';
  const toggle = async () => {
    setBusy(true);
    try {
      const params = { params: { path: { pageId: page.id } } };
      if (starred) await data(api.DELETE('/api/v1/pages/{pageId}/favorite', { params: { path: { pageId: page.id }, query: {} } }));
      else await data(api.PUT('/api/v1/pages/{pageId}/favorite', { ...params, body: {} }));
      await queryClient.invalidateQueries({ queryKey: personalKeys.favorites(page.workspaceId) });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not change your favourites', message: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={starred ? 'yellow' : 'gray'} aria-label={label} aria-pressed={starred} loading={busy} onClick={() => void toggle()}>
        {starred ? <IconStarFilled size={18} /> : <IconStar size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

type PageDialog = 'export' | 'import' | 'template';

/**
 * The page's "…" menu: history, copy link, export, import under it, save as template, duplicate and move to trash
 * (asked first). What is used all day stays in the header (share, comments, watch, the star); the rest is here, so the
 * header keeps one row at 1280 px and on a phone.
 */
export function PageMenu({
  page,
  title,
  pagePath,
  spaceSlug,
  canEdit,
}: {
  page: PageRef;
  title: string;
  pagePath: string;
  spaceSlug: string;
  canEdit: boolean;
}) {
  const workspace = useWorkspace();
  // Export and import dialogs stay mounted once opened (an export or import in progress keeps its state when closed).
  const [dialog, setDialog] = useState<PageDialog | null>(null);
  const [used, setUsed] = useState<ReadonlySet<PageDialog>>(new Set());
  const open = (which: PageDialog) => {
    setUsed((u) => new Set(u).add(which));
    setDialog(which);
  };
  const close = () => setDialog(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [trashOpen, trash] = useDisclosure(false);
  const [trashing, setTrashing] = useState(false);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(new URL(pagePath, window.location.origin).toString());
      notifications.show({ color: 'teal', message: 'Link copied' });
    } catch {
      notifications.show({ color: 'red', message: 'Could not copy the link' });
    }
  };

  const duplicate = async (includeChildren: boolean) => {
    try {
      const copy = (await data(api.POST('/api/v1/pages/{pageId}/duplicate', { params: { path: { pageId: page.id } }, body: { includeChildren } }))) as {
        id: string;
        title: string;
        copiedPages: number;
      };
      await queryClient.invalidateQueries({ queryKey: pageKeys.all });
      notifications.show({ color: 'teal', message: copy.copiedPages > 1 ? `Copied ${copy.copiedPages} pages` : `“${copy.title}” created` });
      navigate(paths.page(workspace.hostname, spaceSlug, { id: copy.id, slug: slugOfTitle(copy.title) }));
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not duplicate the page', message: messageOf(err) });
    }
  };

  const moveToTrash = async () => {
    setTrashing(true);
    try {
      await data(api.DELETE('/api/v1/pages/{pageId}', { params: { path: { pageId: page.id }, query: {} } }));
      await queryClient.invalidateQueries({ queryKey: pageKeys.all });
      await queryClient.invalidateQueries({ queryKey: personalKeys.favorites(page.workspaceId) });
      notifications.show({ color: 'teal', message: `“${title || 'Untitled'}” moved to the trash` });
      navigate(paths.space(workspace.hostname, spaceSlug));
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not move the page to the trash', message: messageOf(err) });
    } finally {
      setTrashing(false);
      trash.close();
    }
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label="More actions">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to={`${pagePath}/history`} leftSection={<IconHistory size={14} />}>
            History
          </Menu.Item>
          <Menu.Item leftSection={<IconLink size={14} />} onClick={() => void copyLink()}>
            Copy link
          </Menu.Item>
          <Menu.Item leftSection={<IconFileZip size={14} />} onClick={() => open('export')}>
            Export…
          </Menu.Item>
          {canEdit && (
            <>
              <Menu.Item leftSection={<IconFileImport size={14} />} onClick={() => open('import')}>
                Import under this page…
              </Menu.Item>
              <Menu.Item leftSection={<IconTemplate size={14} />} onClick={() => open('template')}>
                Save as template…
              </Menu.Item>
              <Menu.Item leftSection={<IconCopy size={14} />} onClick={() => void duplicate(false)}>
                Duplicate
              </Menu.Item>
              <Menu.Item leftSection={<IconCopy size={14} />} onClick={() => void duplicate(true)}>
                Duplicate with subpages
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item leftSection={<IconTrash size={14} />} onClick={trash.open}>
                Move to trash
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      {used.has('export') && (
        <ExportModal opened={dialog === 'export'} onClose={close} target={{ workspaceId: page.workspaceId, pageId: page.id }} name={title} />
      )}
      {used.has('import') && (
        <ImportModal
          opened={dialog === 'import'}
          onClose={close}
          target={{ workspaceId: page.workspaceId, spaceId: page.spaceId, parentPageId: page.id }}
          name={title}
          spaceSlug={spaceSlug}
        />
      )}
      {dialog === 'template' && <SaveAsTemplateModal opened onClose={close} page={{ ...page, title }} isAdmin={workspace.role === 'admin'} />}
      <Modal opened={trashOpen} onClose={trash.close} title="Move this page to the trash?" centered>
        <Text size="sm" mb="md">
          “{title || 'Untitled'}” and the pages under it go to the space’s trash, from where they can be recovered.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={trash.close}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void moveToTrash()} loading={trashing}>
            Move to trash
          </Button>
        </Group>
      </Modal>
    </>
  );
}
