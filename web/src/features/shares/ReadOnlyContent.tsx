import { extensions } from '@editor/extensions';
import { Box } from '@mantine/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { type MouseEvent, useCallback } from 'react';
import { useNavigate } from 'react-router';
import { BlockViews, withBlockView } from '../pages/editor/block-views';
import '../pages/editor/editor.css';

const readOnlyExtensions = [...extensions.map((ext) => withBlockView(ext)), BlockViews];

/**
 * A page's content, read-only, rendered by the same Tiptap extensions (the one shared schema) as the editor, so it
 * looks exactly like the page. Links into the share (`/s/…`) open in the reader without reloading the app.
 */
export function ReadOnlyContent({ content }: { content: Record<string, unknown> }) {
  const navigate = useNavigate();
  const editor = useEditor(
    {
      extensions: readOnlyExtensions,
      content,
      editable: false,
      editorProps: { attributes: { 'aria-label': 'Page content', 'aria-readonly': 'true', class: 'kb-prose' } },
    },
    [content],
  );
  const onClick = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      const anchor = (event.target as HTMLElement).closest('a');
      const href = anchor?.getAttribute('href');
      if (!href?.startsWith('/s/') || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(href);
    },
    [navigate],
  );
  return (
    <Box className="kb-editor" onClick={onClick}>
      <EditorContent editor={editor} />
    </Box>
  );
}
