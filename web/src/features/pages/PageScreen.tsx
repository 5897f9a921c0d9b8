import { Anchor, Breadcrumbs, Button, Drawer, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconHistory, IconMessageCircle, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useCurrentSpace } from '../spaces/spaces.queries';
import { canEditIn, pageIdOf, paths, useWorkspace } from '../workspaces/workspace-context';
import { ConflictAlert } from './editor/ConflictAlert';
import { keepMine, takeTheirs } from './editor/conflict';
import { PageEditor, usePageEditor } from './editor/PageEditor';
import { editorPageKey, type LoadedPage, loadPage, type PageDraft } from './editor/page-doc';
import { SaveStatus } from './editor/SaveStatus';
import { useAutosave } from './editor/useAutosave';
import { pageKeys } from './pages.queries';

const CommentsPanel = lazy(() => import('../comments/CommentsPanel'));

/** `/w/:ws/s/:space/p/:pageRef`: the page, its title and content, saved as the person types. */
export default function PageScreen() {
  const pageId = pageIdOf(useParams().pageRef);
  const loaded = useQuery({
    queryKey: editorPageKey(pageId ?? ''),
    queryFn: () => loadPage(pageId as string),
    enabled: Boolean(pageId),
    // The editor owns the text once loaded: a background refetch must never replace what the person is typing.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  if (loaded.isPending) return <ScreenLoader />;
  if (loaded.error) return <ErrorNotice error={loaded.error} title="This page could not be opened" />;
  return <PageBody key={loaded.data.page.id} initial={loaded.data} />;
}

function PageBody({ initial }: { initial: LoadedPage }) {
  const workspace = useWorkspace();
  const { space } = useCurrentSpace();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const page = initial.page;
  const canEdit = page.role ? page.role !== 'viewer' : canEditIn(workspace.role);
  const [title, setTitle] = useState(page.title);
  const titleRef = useRef(page.title);
  const savedTitle = useRef(page.title);
  const editorRef = useRef<ReturnType<typeof usePageEditor>>(null);

  const read = useCallback(
    (): PageDraft => ({ title: titleRef.current.trim() || 'Untitled', content: editorRef.current?.getJSON() ?? (page.content as Record<string, unknown>) }),
    [page.content],
  );
  const onSaved = useCallback(
    (draft: PageDraft) => {
      // A new title shows in the tree and the breadcrumbs; content changes concern only this screen.
      if (draft.title !== savedTitle.current) {
        savedTitle.current = draft.title;
        void queryClient.invalidateQueries({ queryKey: pageKeys.tree(page.spaceId) });
        void queryClient.invalidateQueries({ queryKey: pageKeys.roots(page.spaceId) });
      }
      void queryClient.invalidateQueries({ queryKey: pageKeys.page(page.id) });
    },
    [queryClient, page.id, page.spaceId],
  );
  const autosave = useAutosave({ pageId: page.id, initialEtag: initial.etag, enabled: canEdit, read, onSaved });
  const target = { workspaceId: page.workspaceId, pageId: page.id };
  const editor = usePageEditor({ target, content: page.content as Record<string, unknown>, editable: canEdit, onChange: autosave.changed });
  editorRef.current = editor;

  const [commentsOpen, comments] = useDisclosure(false);
  const [trashOpen, trash] = useDisclosure(false);
  const [trashing, setTrashing] = useState(false);
  const spaceSlug = space?.slug ?? '';
  const pagePath = paths.page(workspace.hostname, spaceSlug, { id: page.id, slug: page.slug });

  const moveToTrash = async () => {
    setTrashing(true);
    try {
      await data(api.DELETE('/api/v1/pages/{pageId}', { params: { path: { pageId: page.id }, query: {} } }));
      autosave.reset(null);
      await queryClient.invalidateQueries({ queryKey: pageKeys.all });
      notifications.show({ color: 'teal', message: `“${titleRef.current || 'Untitled'}” moved to the trash` });
      navigate(paths.space(workspace.hostname, spaceSlug));
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not move the page to the trash', message: messageOf(err) });
    } finally {
      setTrashing(false);
      trash.close();
    }
  };

  const useTheirVersion = async () => {
    if (!editor) return;
    try {
      const fresh = await takeTheirs(autosave, page.id, editor);
      titleRef.current = savedTitle.current = fresh.page.title;
      setTitle(fresh.page.title);
      notifications.show({ color: 'teal', message: 'Loaded their version. Yours is kept in History.' });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not load their version', message: messageOf(err) });
    }
  };

  return (
    <Stack gap="md" maw={860} mx="auto" px={{ base: 0, sm: 'md' }} pb="xl">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Breadcrumbs aria-label="Breadcrumb" separator="›" style={{ flexWrap: 'wrap', minWidth: 0 }}>
          {space ? (
            <Anchor component={Link} to={paths.space(workspace.hostname, space.slug)} size="sm">
              {space.name}
            </Anchor>
          ) : (
            <Text size="sm">Space</Text>
          )}
          <Text size="sm" c="dimmed" truncate maw={240}>
            {title || 'Untitled'}
          </Text>
        </Breadcrumbs>
        <Group gap="xs" wrap="wrap">
          {canEdit ? <SaveStatus autosave={autosave} /> : <Text size="sm" c="dimmed">Read only</Text>}
          <Button component={Link} to={`${pagePath}/history`} variant="default" size="xs" leftSection={<IconHistory size={14} />}>
            History
          </Button>
          <Button variant="default" size="xs" leftSection={<IconMessageCircle size={14} />} onClick={comments.open}>
            Comments
          </Button>
          {canEdit && (
            <Button variant="subtle" color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={trash.open}>
              Move to trash
            </Button>
          )}
        </Group>
      </Group>

      {autosave.conflict && (
        <ConflictAlert updatedAt={autosave.conflict.updatedAt} onKeepMine={() => keepMine(autosave, page.id).then(() => {})} onUseTheirs={useTheirVersion} />
      )}

      <Textarea
        aria-label="Title"
        placeholder="Untitled"
        variant="unstyled"
        autosize
        minRows={1}
        value={title}
        readOnly={!canEdit}
        maxLength={500}
        onChange={(e) => {
          const next = e.currentTarget.value.replace(/\n/g, ' ');
          setTitle(next);
          titleRef.current = next;
          autosave.changed();
        }}
        onKeyDown={(e) => {
          // Enter leaves the title for the text below, as in every document editor.
          if (e.key === 'Enter') {
            e.preventDefault();
            editor?.commands.focus('start');
          }
        }}
        styles={{ input: { fontSize: 'calc(2rem * var(--mantine-scale))', fontWeight: 700, lineHeight: 1.25, color: 'var(--mantine-color-text)' } }}
      />

      <PageEditor editor={editor} />

      <Drawer opened={commentsOpen} onClose={comments.close} position="right" title="Comments" size="md">
        <Suspense fallback={<ScreenLoader />}>
          <CommentsPanel workspaceId={page.workspaceId} pageId={page.id} canComment={canEdit} />
        </Suspense>
      </Drawer>

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
    </Stack>
  );
}
