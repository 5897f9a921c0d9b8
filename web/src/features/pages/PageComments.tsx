import { Drawer } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Editor } from '@tiptap/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { type Thread, threadsOf, useComments } from '../comments/comments.queries';
import { type CommentAnchor, revealCommentAnchor, showCommentAnchors } from './collab/comment-anchors';

const CommentsPanel = lazy(() => import('../comments/CommentsPanel'));

/**
 * A page's comments around its editor: the open threads on text highlighted in the page (resolved ones hide theirs),
 * a click on a highlight opening its thread, "Comment" on a selection starting a thread on it, and the panel docked
 * beside the page, which stays usable (no overlay, no dimming; on wide screens the page moves aside for it).
 */
export function usePageComments(scope: { workspaceId: string; pageId: string }, editor: Editor | null, canComment: boolean) {
  const [opened, panel] = useDisclosure(false);
  const [draft, setDraft] = useState<CommentAnchor | undefined>();
  const [active, setActive] = useState<string | null>(null);
  const comments = useComments(scope);
  const threads = useMemo(() => threadsOf(comments.data ?? []), [comments.data]);

  const openThread = useCallback(
    (id: string) => {
      setActive(id);
      setDraft(undefined);
      panel.open();
    },
    [panel],
  );
  useEffect(() => {
    if (!editor) return;
    const anchored = threads.flatMap((t) => (t.root.anchor && !t.root.resolved ? [{ id: t.root.id, anchor: t.root.anchor }] : []));
    showCommentAnchors(editor, anchored, opened ? active : null, openThread);
  }, [editor, threads, active, opened, openThread]);

  const commentOn = useCallback(
    (anchor: CommentAnchor) => {
      setDraft(anchor);
      setActive(null);
      panel.open();
    },
    [panel],
  );
  const selectThread = useCallback(
    (thread: Thread) => {
      setActive(thread.root.id);
      if (editor && thread.root.anchor) revealCommentAnchor(editor, thread.root.anchor);
    },
    [editor],
  );

  const dock = (
    <Drawer
      opened={opened}
      onClose={() => {
        panel.close();
        setDraft(undefined);
        setActive(null);
      }}
      position="right"
      title="Comments"
      size="md"
      withOverlay={false}
      lockScroll={false}
      trapFocus={false}
      closeOnClickOutside={false}
      shadow="md"
    >
      <Suspense fallback={<ScreenLoader />}>
        <CommentsPanel
          workspaceId={scope.workspaceId}
          pageId={scope.pageId}
          canComment={canComment}
          anchor={draft}
          onDraftDone={() => setDraft(undefined)}
          activeId={active}
          onSelectThread={selectThread}
        />
      </Suspense>
    </Drawer>
  );
  return { opened, open: panel.open, commentOn, dock };
}
