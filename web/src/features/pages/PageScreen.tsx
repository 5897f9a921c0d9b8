import { Anchor, Breadcrumbs, Button, Center, Drawer, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconHistory, IconMessageCircle, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useUser } from '../auth/session';
import { ExportButton } from '../exports/ExportButton';
import { ImportButton } from '../imports/ImportButton';
import { WatchButton } from '../notifications/WatchButton';
import { PublishButton } from '../shares/PublishButton';
import { useCurrentSpace } from '../spaces/spaces.queries';
import { canEditIn, pageIdOf, paths, useWorkspace } from '../workspaces/workspace-context';
import { ShareButton } from './access/ShareButton';
import { refusalMessage } from './collab/collab-session';
import { PeopleHere } from './collab/PeopleHere';
import { type CollabState, useCollabSession } from './collab/useCollabSession';
import { PageEditor, PagePreview } from './editor/PageEditor';
import { type EditablePage, editorPageKey, loadPage } from './editor/page-doc';
import { SaveStatus } from './editor/SaveStatus';
import { useTitleSave } from './editor/useTitleSave';
import { pageKeys, slugOfTitle } from './pages.queries';

const CommentsPanel = lazy(() => import('../comments/CommentsPanel'));

/** `/w/:ws/s/:space/p/:pageRef`: the page, its title and content, edited together with whoever else has it open. */
export default function PageScreen() {
  const pageId = pageIdOf(useParams().pageRef);
  const user = useUser();
  // The co-editing session (socket handshake, this device's copy) opens beside the page's read, not after it: the
  // content usually arrives over the socket while the read is on its way. A page that cannot be read is refused there too.
  const collab = useCollabSession(pageId ?? '', user);
  const queryClient = useQueryClient();
  // Every visit reads the page afresh (the title field takes its title once): what a prefetch or the early start left
  // in the cache is used once, then dropped on leaving (their longer gcTime would otherwise outlive `gcTime: 0`).
  useEffect(() => () => queryClient.removeQueries({ queryKey: editorPageKey(pageId ?? ''), exact: true }), [queryClient, pageId]);
  const loaded = useQuery({
    queryKey: editorPageKey(pageId ?? ''),
    queryFn: () => loadPage(pageId as string),
    enabled: Boolean(pageId),
    // The title field owns the title once loaded: a background refetch must never replace what the person is typing.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  if (loaded.isPending) return <ScreenLoader />;
  if (loaded.error) return <ErrorNotice error={loaded.error} title="This page could not be opened" />;
  return <PageBody key={loaded.data.id} page={loaded.data} collab={collab} />;
}

/**
 * Pages longer than this (top-level blocks) wait for the editor instead of showing a preview first: rendering a long
 * page twice (preview, then editor) costs more main thread than the socket's first sync saves.
 */
const PREVIEW_MAX_BLOCKS = 400;

/** Why the co-edited document cannot come (the server refused it), that it waits for the network, or a spinner. */
function DocumentPending({ collab, spinner }: { collab: CollabState; spinner: boolean }) {
  if (collab.refused) return <Text c="red">{refusalMessage(collab.refused)}.</Text>;
  if (collab.status === 'offline') return <Text c="dimmed">This page is not kept on this device yet: it can be edited when you are back online.</Text>;
  if (!spinner) return null;
  return (
    <Center mih={240}>
      <Loader size="sm" aria-label="Loading the page" />
    </Center>
  );
}

function PageBody({ page, collab }: { page: EditablePage; collab: CollabState }) {
  const workspace = useWorkspace();
  const { space } = useCurrentSpace();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The server's word on the live connection wins over the role read with the page (it is re-checked while open).
  const canEdit = collab.readOnly === null ? (page.role ? page.role !== 'viewer' : canEditIn(workspace.role)) : !collab.readOnly;
  const [title, setTitle] = useState(page.title);
  const titleRef = useRef(page.title);

  // The URL names the page by its title's slug: it follows the title (saved here, or renamed elsewhere), so the address
  // bar, a copied link and a reload show the page's name, not the "untitled" it was created with.
  const [slug, setSlug] = useState(page.slug);
  const onTitleSaved = useCallback((saved: string) => {
    setSlug(slugOfTitle(saved));
    // A new title shows in the tree and the breadcrumbs.
    void queryClient.invalidateQueries({ queryKey: pageKeys.tree(page.spaceId) });
    void queryClient.invalidateQueries({ queryKey: pageKeys.roots(page.spaceId) });
    void queryClient.invalidateQueries({ queryKey: pageKeys.page(page.id) });
  }, [queryClient, page.id, page.spaceId]);
  const titleSave = useTitleSave({ pageId: page.id, initial: page.title, onSaved: onTitleSaved });
  // A rename made elsewhere while the page is open shows at once, unless this person has a title of their own pending
  // (theirs is saved after, and is then the one everyone sees); the echo of their own rename changes nothing.
  const { liveTitle } = collab;
  const titleState = useRef(titleSave.state);
  titleState.current = titleSave.state;
  useEffect(() => {
    if (!liveTitle || titleState.current !== 'saved' || liveTitle.title === titleRef.current) return;
    setTitle(liveTitle.title);
    titleRef.current = liveTitle.title;
    onTitleSaved(liveTitle.title);
  }, [liveTitle, onTitleSaved]);
  const target = useMemo(() => ({ workspaceId: page.workspaceId, pageId: page.id }), [page.workspaceId, page.id]);
  const editorRef = useRef<Editor | null>(null);
  // Where the person clicked in the preview before the editor came: the editor puts its caret there once it is here.
  const placed = useRef<number | null>(null);
  const onPlace = useCallback((pos: number) => {
    placed.current = pos;
  }, []);
  const onEditor = useCallback((editor: Editor | null) => {
    editorRef.current = editor;
    const pos = placed.current;
    placed.current = null;
    // After the view has its document (the editor is handed over before its first paint).
    if (editor && pos !== null) setTimeout(() => editor.isDestroyed || editor.commands.focus(pos), 0);
  }, []);

  const [commentsOpen, comments] = useDisclosure(false);
  const [trashOpen, trash] = useDisclosure(false);
  const [trashing, setTrashing] = useState(false);
  const spaceSlug = space?.slug ?? '';
  const pagePath = paths.page(workspace.hostname, spaceSlug, { id: page.id, slug });
  const location = useLocation();
  useEffect(() => {
    if (!space || location.pathname === pagePath) return;
    // Replaced, not pushed: Back leaves the page rather than stepping through its old names.
    navigate({ pathname: pagePath, search: location.search, hash: location.hash }, { replace: true });
  }, [space, pagePath, location.pathname, location.search, location.hash, navigate]);

  const moveToTrash = async () => {
    setTrashing(true);
    try {
      await data(api.DELETE('/api/v1/pages/{pageId}', { params: { path: { pageId: page.id }, query: {} } }));
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
          <PeopleHere others={collab.others} />
          <SaveStatus collab={collab} title={titleSave} readOnly={!canEdit} />
          <WatchButton target={{ type: 'page', id: page.id }} compact />
          <Button component={Link} to={`${pagePath}/history`} variant="default" size="xs" leftSection={<IconHistory size={14} />}>
            History
          </Button>
          <Button variant="default" size="xs" leftSection={<IconMessageCircle size={14} />} onClick={comments.open}>
            Comments
          </Button>
          <ShareButton
            page={{ id: page.id, workspaceId: page.workspaceId, title, hostname: workspace.hostname, spaceSlug }}
            canManage={canEdit || workspace.role === 'admin'}
          />
          <ExportButton target={target} name={title} size="xs" />
          {canEdit && <PublishButton workspaceId={page.workspaceId} pageId={page.id} name={title} />}
          {canEdit && (
            <ImportButton
              target={{ workspaceId: page.workspaceId, spaceId: page.spaceId, parentPageId: page.id }}
              name={title}
              spaceSlug={spaceSlug}
              size="xs"
            />
          )}
          {canEdit && (
            <Button variant="subtle" color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={trash.open}>
              Move to trash
            </Button>
          )}
        </Group>
      </Group>

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
          titleSave.changed(next.trim() || 'Untitled');
        }}
        onKeyDown={(e) => {
          // Enter leaves the title for the text below, as in every document editor.
          if (e.key === 'Enter') {
            e.preventDefault();
            editorRef.current?.commands.focus('start');
          }
        }}
        styles={{ input: { fontSize: 'calc(2rem * var(--mantine-scale))', fontWeight: 700, lineHeight: 1.25, color: 'var(--mantine-color-text)' } }}
      />

      {collab.session && collab.ready ? (
        <PageEditor target={target} session={collab.session} editable={canEdit && !collab.refused} onEditor={onEditor} />
      ) : collab.refused || (page.content.content?.length ?? 0) > PREVIEW_MAX_BLOCKS ? (
        <DocumentPending collab={collab} spinner />
      ) : (
        // The text from the page's read (usually in hand before the click: the tree prefetches it on hover) shows at
        // once; the co-edited document replaces it when it is here, from this device or the server.
        <>
          <DocumentPending collab={collab} spinner={false} />
          <PagePreview target={target} content={page.content} onPlace={onPlace} />
        </>
      )}

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
