import { Extension } from '@tiptap/core';
import type { EditorState, Transaction } from '@tiptap/pm/state';

/**
 * Moves the top-level block holding the selection one place up or down: the neighbour it passes is taken out and put
 * back on the other side, so the moved block itself (and the caret in it, anyone's comment anchors and carets) stays
 * as it is. One ordinary transaction: co-editors see it like any edit, and Ctrl/Cmd-Z takes it back.
 */
export function moveBlock(direction: 'up' | 'down') {
  return (state: EditorState, dispatch?: (tr: Transaction) => void) => {
    const { doc, selection } = state;
    const index = selection.$from.index(0);
    // A selection across blocks, or one ending past the block it starts in, is not one block to move.
    if (selection.$to.index(0) !== index && !(selection.$to.depth === 0 && selection.to === selection.$from.posAtIndex(index + 1, 0))) return false;
    const neighbour = direction === 'up' ? index - 1 : index + 1;
    if (index >= doc.childCount || neighbour < 0 || neighbour >= doc.childCount) return false;
    if (!dispatch) return true;
    const start = (i: number) => selection.$from.posAtIndex(i, 0);
    const passed = doc.child(neighbour);
    const tr = state.tr;
    if (direction === 'down') {
      tr.delete(start(neighbour), start(neighbour) + passed.nodeSize).insert(start(index), passed);
    } else {
      const end = start(index) + doc.child(index).nodeSize;
      tr.insert(end, passed).delete(start(neighbour), start(neighbour) + passed.nodeSize);
    }
    dispatch(tr.scrollIntoView());
    return true;
  };
}

/** Alt+Shift+↑ and Alt+Shift+↓: the block with the caret moves up or down (the drag handle's keyboard way). */
export const MoveBlock = Extension.create({
  name: 'moveBlock',
  addKeyboardShortcuts() {
    return {
      'Alt-Shift-ArrowUp': () => moveBlock('up')(this.editor.state, this.editor.view.dispatch),
      'Alt-Shift-ArrowDown': () => moveBlock('down')(this.editor.state, this.editor.view.dispatch),
    };
  },
});
