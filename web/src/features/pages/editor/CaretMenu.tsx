import { Paper } from '@mantine/core';
import type { Editor } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

const PLACEMENT = { placement: 'bottom-start', offset: 6, flip: true, shift: { padding: 8 } } as const;

/** Asks for the box an editor event opens (the editor's own event bus, as the link box is asked for); `arg` is handed to it. */
export function requestCaretMenu(editor: Editor, event: string, arg?: string) {
  (editor as unknown as { emit(event: string, arg?: string): void }).emit(event, arg);
}

/**
 * A box under the caret, opened by an editor event (the slash menu's "Embed", "Link card", "Emoji"); it closes when
 * the caret moves elsewhere. `children` gets the event's argument and the way to close it.
 */
export function CaretMenu({
  editor,
  event,
  menuKey,
  children,
}: {
  editor: Editor;
  event: string;
  menuKey: string;
  children: (arg: string | undefined, close: () => void) => ReactNode;
}) {
  const [opened, setOpened] = useState<{ at: number; arg?: string } | null>(null);
  useEffect(() => {
    const bus = editor as unknown as { on(e: string, f: (arg?: string) => void): void; off(e: string, f: (arg?: string) => void): void };
    const open = (arg?: string) => setOpened({ at: editor.state.selection.from, arg });
    const moved = () => setOpened((o) => (o !== null && editor.state.selection.from !== o.at ? null : o));
    bus.on(event, open);
    editor.on('selectionUpdate', moved);
    return () => {
      bus.off(event, open);
      editor.off('selectionUpdate', moved);
    };
  }, [editor, event]);
  const open = opened !== null;
  // Stable while open or closed (the menu re-registers its options whenever this changes).
  const shouldShow = useCallback(({ editor: e }: { editor: Editor }) => open && e.isEditable, [open]);
  // The menu itself shows and hides only on a change of selection or document: opening (or closing) changes neither.
  const shown = useRef(false);
  useEffect(() => {
    if (editor.isDestroyed || open === shown.current) return;
    shown.current = open;
    const tell = (meta: string) => editor.view.dispatch(editor.state.tr.setMeta(menuKey, meta));
    if (open) {
      tell('show');
      tell('updatePosition');
    } else tell('hide');
  }, [editor, open, menuKey]);
  const close = useCallback(() => setOpened(null), []);
  return (
    <BubbleMenu editor={editor} pluginKey={menuKey} className="kb-menu" shouldShow={shouldShow} options={PLACEMENT}>
      <Paper shadow="md" withBorder p={4} radius="md">
        {opened && children(opened.arg, close)}
      </Paper>
    </BubbleMenu>
  );
}
