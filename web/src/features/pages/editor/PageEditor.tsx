import { Box } from '@mantine/core';
import { type Editor, EditorContent, useEditor } from '@tiptap/react';
import { type MouseEvent, useCallback, useEffect, useMemo, useRef } from 'react';
import { collabExtensions } from '../collab/collab-extensions';
import type { CollabSession } from '../collab/collab-session';
import type { CommentAnchor } from '../collab/comment-anchors';
import type { DocJSON } from '../pages.queries';
import { BlockDragHandle } from './BlockDragHandle';
import { EditorMenus } from './EditorMenus';
import { EmojiMenu } from './emoji/EmojiMenu';
import { FindBar } from './FindBar';
import { TemplateInsert } from '../../templates/TemplateInsert';
import { TableMenu } from './TableMenu';
import { editorExtensions } from './editor-extensions';
import type { UploadTarget } from './uploads';
import { useMentionLinks } from './useMentionLinks';
import { useWorkspacePagePath } from './useWorkspacePagePath';
import './editor.css';

/**
 * The page's Tiptap editor, created once per co-editing session. Its content is the session's Yjs document (never
 * the REST `content`): what the person types goes to the server and to everyone else from there, and typing does not
 * re-render React (a 1 MB page must stay quick).
 */
function usePageEditor(opts: { target: UploadTarget; session: CollabSession; editable: boolean }): Editor | null {
  const { target, session, editable } = opts;
  const { pageId, workspaceId } = target;
  const editableRef = useRef(editable);
  editableRef.current = editable;
  // Built once per session: new extension objects on a re-render would make Tiptap reconfigure the editor.
  const extensions = useMemo(() => [...editorExtensions({ pageId, workspaceId }), ...collabExtensions(session)], [pageId, workspaceId, session]);
  const editor = useEditor(
    {
      extensions,
      editable,
      shouldRerenderOnTransaction: false,
      editorProps: {
        // A function, so that it is read again when the editor turns read-only or back (the server's scope).
        attributes: () => ({
          role: 'textbox',
          'aria-label': 'Page content',
          'aria-multiline': 'true',
          ...(editableRef.current ? {} : { 'aria-readonly': 'true' }),
          class: 'kb-prose',
        }),
      },
    },
    [session],
  );
  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable, false);
  }, [editor, editable]);
  return editor;
}

/** The page's content, co-edited; `onEditor` hands the editor to the screen (the title's Enter moves into it). */
export function PageEditor(props: {
  target: UploadTarget;
  session: CollabSession;
  editable: boolean;
  onEditor?: (editor: Editor | null) => void;
  /** "Comment" in the selection toolbar: a thread on the selected text (its range in the live document). */
  onComment?: (anchor: CommentAnchor) => void;
}) {
  const editor = usePageEditor(props);
  const { onEditor } = props;
  useEffect(() => {
    onEditor?.(editor);
    return () => onEditor?.(null);
  }, [editor, onEditor]);
  const mentionLinks = useMentionLinks(props.editable, useWorkspacePagePath());
  return (
    <Box className="kb-editor" mih={240} {...mentionLinks}>
      {editor && <FindBar editor={editor} canReplace={props.editable} />}
      <EditorContent editor={editor} />
      {editor && props.editable && <EditorMenus editor={editor} onComment={props.onComment} />}
      {editor && props.editable && <TableMenu editor={editor} />}
      {editor && props.editable && <EmojiMenu editor={editor} />}
      {editor && props.editable && <BlockDragHandle editor={editor} />}
      {editor && props.editable && <TemplateInsert editor={editor} workspaceId={props.target.workspaceId} pageId={props.target.pageId} />}
    </Box>
  );
}

/**
 * The page's content as its read gave it, read-only, while the co-edited document is on its way (the socket's
 * handshake and first sync take 100–300 ms after the screen shows): the same extensions render it, so the text looks
 * exactly as it will in the editor, which then takes its place. Never an editor of its own: nothing typed here
 * could reach the Yjs document, so it is no `textbox` (a `document`, `aria-busy`), and the editor never starts from
 * this content (Collaboration seeds nothing: the document stays the one source). A click here is handed to the editor as where to
 * put the caret (`onPlace`, a ProseMirror position; the read and the document hold the same page).
 */
export function PagePreview(props: { target: UploadTarget; content: DocJSON; onPlace?: (pos: number) => void }) {
  const { target, content, onPlace } = props;
  const { pageId, workspaceId } = target;
  const extensions = useMemo(() => editorExtensions({ pageId, workspaceId }), [pageId, workspaceId]);
  const editor = useEditor(
    {
      extensions,
      content,
      editable: false,
      shouldRerenderOnTransaction: false,
      // A named `document` (a generic element cannot carry a name): read as the page's content, busy until the editor is here.
      editorProps: { attributes: { role: 'document', 'aria-label': 'Page content', 'aria-busy': 'true', class: 'kb-prose' } },
    },
    [extensions, content],
  );
  const onMouseDown = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      const pos = editor?.view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
      onPlace?.(pos ?? editor?.state.doc.content.size ?? 0);
    },
    [editor, onPlace],
  );
  const mentionLinks = useMentionLinks(false, useWorkspacePagePath());
  return (
    <Box className="kb-editor" mih={240} onMouseDown={onMouseDown} {...mentionLinks}>
      <EditorContent editor={editor} />
    </Box>
  );
}
