import { Box } from '@mantine/core';
import { type Editor, EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useMemo, useRef } from 'react';
import { collabExtensions } from '../collab/collab-extensions';
import type { CollabSession } from '../collab/collab-session';
import { editorExtensions } from './editor-extensions';
import type { UploadTarget } from './uploads';
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
export function PageEditor(props: { target: UploadTarget; session: CollabSession; editable: boolean; onEditor?: (editor: Editor | null) => void }) {
  const editor = usePageEditor(props);
  const { onEditor } = props;
  useEffect(() => {
    onEditor?.(editor);
    return () => onEditor?.(null);
  }, [editor, onEditor]);
  return (
    <Box className="kb-editor" mih={240}>
      <EditorContent editor={editor} />
    </Box>
  );
}
