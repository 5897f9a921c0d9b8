import { Box } from '@mantine/core';
import { type Editor, EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useMemo, useRef } from 'react';
import { editorExtensions } from './editor-extensions';
import type { UploadTarget } from './uploads';
import './editor.css';

/**
 * The page's Tiptap editor, created once per page. `onChange` fires per edit without re-rendering React (typing
 * on a 1 MB page must not re-render the screen); the content is read from the editor only when it is saved.
 */
export function usePageEditor(opts: { target: UploadTarget; content: Record<string, unknown>; editable: boolean; onChange: () => void }): Editor | null {
  const onChange = useRef(opts.onChange);
  onChange.current = opts.onChange;
  const { pageId, workspaceId } = opts.target;
  // Built once per page: new extension objects on a re-render would make Tiptap reconfigure the editor.
  const extensions = useMemo(() => editorExtensions({ pageId, workspaceId }), [pageId, workspaceId]);
  const editor = useEditor(
    {
      extensions,
      content: opts.content,
      editable: opts.editable,
      shouldRerenderOnTransaction: false,
      editorProps: {
        attributes: {
          role: 'textbox',
          'aria-label': 'Page content',
          'aria-multiline': 'true',
          ...(opts.editable ? {} : { 'aria-readonly': 'true' }),
          class: 'kb-prose',
        },
      },
      onUpdate: ({ transaction }) => {
        if (transaction.docChanged) onChange.current();
      },
    },
    [opts.target.pageId],
  );
  useEffect(() => {
    if (editor && editor.isEditable !== opts.editable) editor.setEditable(opts.editable, false);
  }, [editor, opts.editable]);
  return editor;
}

export function PageEditor({ editor }: { editor: Editor | null }) {
  return (
    <Box className="kb-editor" mih={240}>
      <EditorContent editor={editor} />
    </Box>
  );
}
