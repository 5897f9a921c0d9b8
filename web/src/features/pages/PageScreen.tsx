import { ActionIcon, Anchor, Breadcrumbs, Center, Group, Loader, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMessageCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useUser } from '../auth/session';
import { WatchButton } from '../notifications/WatchButton';
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
import { FavoriteButton, PageMenu } from './PageActions';
import { usePageComments } from './PageComments';
import { PageIcon } from './PageIcon';
import { isNewPageState, pageKeys, slugOfTitle } from './pages.queries';
import { PageWithContents } from './toc/TableOfContents';

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
  // The page's editor once it is here: the table of contents beside the page reads its headings.
  const [editor, setEditor] = useState<Editor | null>(null);
  if (loaded.isPending) return <ScreenLoader />;
  if (loaded.error) return <ErrorNotice error={loaded.error} title="This page could not be opened" />;
  return (
    <PageWithContents editor={editor}>
      <PageBody key={loaded.data.id} page={loaded.data} collab={collab} editor={editor} onEditorChange={setEditor} />
    </PageWithContents>
  );
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

function PageBody({
  page,
  collab,
  editor,
  onEditorChange,
}: {
  page: EditablePage;
  collab: CollabState;
  editor: Editor | null;
  onEditorChange?: (editor: Editor | null) => void;
}) {
  const workspace = useWorkspace();
  const { space } = useCurrentSpace();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The server's word on the live connection wins over the role read with the page (it is re-checked while open).
  const canEdit = collab.readOnly === null ? (page.role ? page.role !== 'viewer' : canEditIn(workspace.role)) : !collab.readOnly;
  const [title, setTitle] = useState(page.title);
  const [icon, setIcon] = useState<string | null>(page.icon ?? null);
  const titleRef = useRef(page.title);

  // The URL names the page by its title's slug: it follows the title (saved here, or renamed elsewhere), so the address
  // bar, a copied link and a reload show the page's name, not the "untitled" it was created with.
  const [slug, setSlug] = useState(page.slug);
  const onTitleSaved = useCallback(
    (saved: string) => {
      setSlug(slugOfTitle(saved));
      // A new title shows in the tree and the breadcrumbs.
      void queryClient.invalidateQueries({ queryKey: pageKeys.tree(page.spaceId) });
      void queryClient.invalidateQueries({ queryKey: pageKeys.roots(page.spaceId) });
      void queryClient.invalidateQueries({ queryKey: pageKeys.page(page.id) });
    },
    [queryClient, page.id, page.spaceId],
  );
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
  // Where the person clicked in the preview (or Enter in the title asked for the start) before the editor came: the
  // editor puts its caret there once it is here, and what they typed meanwhile (`early`) goes in at it.
  const placed = useRef<number | 'start' | null>(null);
  const early = useRef('');
  const bodyRef = useRef<HTMLDivElement>(null);
  const onPlace = useCallback((pos: number) => {
    placed.current = pos;
  }, []);
  const onEditor = useCallback(
    (editor: Editor | null) => {
      editorRef.current = editor;
      onEditorChange?.(editor);
      const pos = placed.current;
      placed.current = null;
      // After the view has its document (the editor is handed over before its first paint).
      if (editor && pos !== null)
        setTimeout(() => {
          if (editor.isDestroyed) return;
          editor.commands.focus(pos);
          editor.view.focus();
          const typed = early.current;
          early.current = '';
          if (typed && editor.isEditable) editor.commands.insertContent(typed);
        }, 0);
    },
    [onEditorChange],
  );
  /** Enter in the title: the caret goes to the start of the body at once (Tiptap's own focus waits a frame, and a key typed within it would land in the title). */
  const enterBody = useCallback(() => {
    const editor = editorRef.current;
    if (editor && !editor.isDestroyed) {
      editor.commands.focus('start');
      editor.view.focus();
      return;
    }
    // The editor is not here yet: the body holds the focus and keeps what is typed for it.
    placed.current = 'start';
    bodyRef.current?.focus();
  }, []);
  useEffect(() => {
    const body = bodyRef.current;
    const onEarlyKey = (e: globalThis.KeyboardEvent) => {
      if (editorRef.current || e.target !== body || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key.length === 1) early.current += e.key;
      else if (e.key === 'Enter') early.current += '\n';
      else if (e.key === 'Backspace') early.current = early.current.slice(0, -1);
      else return;
      e.preventDefault();
    };
    body?.addEventListener('keydown', onEarlyKey);
    return () => body?.removeEventListener('keydown', onEarlyKey);
  }, []);
  // A page just created opens with its (empty) title focused, ready to be named.
  const navigationState = useLocation().state;
  const [focusTitle] = useState(() => isNewPageState(navigationState));

  const comments = usePageComments(target, editor, canEdit);
  // On wide screens the page moves aside for the docked comments panel (Mantine's `md` drawer, 440 px), so the text
  // next to a thread stays in view.
  const docked = useMediaQuery('(min-width: 75em)') && comments.opened;
  const spaceSlug = space?.slug ?? '';
  const pagePath = paths.page(workspace.hostname, spaceSlug, { id: page.id, slug });
  const location = useLocation();
  useEffect(() => {
    if (!space || location.pathname === pagePath) return;
    // Only while the address is still this page's: a rename's echo can arrive just as the person goes to another page
    // (a new child from the tree), and replacing that page's address with this one's would take them back here.
    if (!window.location.pathname.endsWith(page.id)) return;
    // Replaced, not pushed: Back leaves the page rather than stepping through its old names.
    navigate({ pathname: pagePath, search: location.search, hash: location.hash }, { replace: true });
  }, [space, pagePath, page.id, location.pathname, location.search, location.hash, navigate]);

  return (
    <Stack gap="md" maw={860} ml={docked ? 0 : 'auto'} mr={docked ? 456 : 'auto'} px={{ base: 0, sm: 'md' }} pb="xl">
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
            {icon ? `${icon} ` : ''}
            {title || 'Untitled'}
          </Text>
        </Breadcrumbs>
        <Group gap="xs" wrap="wrap">
          <PeopleHere others={collab.others} />
          <SaveStatus collab={collab} title={titleSave} readOnly={!canEdit} />
          <WatchButton target={{ type: 'page', id: page.id }} compact />
          <Tooltip label="Comments">
            <ActionIcon
              variant={comments.opened ? 'light' : 'subtle'}
              color="gray"
              aria-label="Comments"
              aria-expanded={comments.opened}
              onClick={comments.open}
            >
              <IconMessageCircle size={18} />
            </ActionIcon>
          </Tooltip>
          <ShareButton
            page={{ id: page.id, workspaceId: page.workspaceId, title, hostname: workspace.hostname, spaceSlug }}
            canManage={canEdit || workspace.role === 'admin'}
          />
          <FavoriteButton page={page} />
          <PageMenu page={page} title={title} pagePath={pagePath} spaceSlug={spaceSlug} canEdit={canEdit} />
        </Group>
      </Group>

      <PageIcon page={page} icon={icon} onChange={setIcon} canEdit={canEdit} />
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
          // Empty until named: the placeholder (and the tree, search, breadcrumbs) read it as "Untitled".
          titleSave.changed(next.trim());
        }}
        autoFocus={focusTitle && canEdit}
        onKeyDown={(e) => {
          // Enter leaves the title for the text below, as in every document editor.
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            enterBody();
          }
        }}
        styles={{ input: { fontSize: 'calc(2rem * var(--mantine-scale))', fontWeight: 700, lineHeight: 1.25, color: 'var(--mantine-color-text)' } }}
      />

      {/* Focusable (not tabbable) so that, before the editor is here, a click or the title's Enter has somewhere to put the keys typed for it. */}
      <div ref={bodyRef} tabIndex={-1} className="kb-page-body">
        {collab.session && collab.ready ? (
          <PageEditor target={target} session={collab.session} editable={canEdit && !collab.refused} onEditor={onEditor} onComment={comments.commentOn} />
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
      </div>

      {comments.dock}
    </Stack>
  );
}
