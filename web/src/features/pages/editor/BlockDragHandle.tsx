import { IconGripVertical } from '@tabler/icons-react';
import { DragHandle } from '@tiptap/extension-drag-handle-react';
import type { Editor } from '@tiptap/react';
import { useRef } from 'react';
import './block-drag.css';

/** Left of the block, its top with the block's first line. */
const POSITION = { placement: 'left-start', strategy: 'absolute' } as const;

/**
 * The handle left of the top-level block under the pointer (Tiptap's drag handle): dragged, it moves the block where
 * it is dropped (ProseMirror's own move, one transaction, so co-editors see it); clicked, it selects the block, which
 * Alt+Shift+↑/↓ then move (block-move.ts) and Delete removes. Editors only; editor.css hides it on touch screens.
 */
export function BlockDragHandle({ editor }: { editor: Editor }) {
  const at = useRef(-1);
  return (
    <DragHandle
      editor={editor}
      className="kb-drag-handle"
      computePositionConfig={POSITION}
      onNodeChange={({ pos }) => {
        at.current = pos;
      }}
    >
      <button
        type="button"
        className="kb-drag-handle-button"
        aria-label="Drag to move block"
        title="Drag to move · click to select · Alt+Shift+↑/↓ moves the block"
        onClick={() => {
          if (at.current >= 0) editor.chain().focus().setNodeSelection(at.current).run();
        }}
      >
        <IconGripVertical size={16} aria-hidden="true" />
      </button>
    </DragHandle>
  );
}
