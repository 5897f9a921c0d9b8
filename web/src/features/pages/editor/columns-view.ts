import type { Editor, Node as TiptapNode } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';

/**
 * Columns in the editor (the nodes are `src/editor/columns.ts`'s; editor.css lays them out as a grid, stacked on a
 * narrow screen). The "/" menu's "2 columns" and "3 columns" put in columns of empty paragraphs with the caret in the
 * first; they are not offered inside a column. A column's edges hold (the nodes are isolating): Backspace at a column's
 * start neither merges it with the one before nor lifts its blocks out. The one exception: Backspace at the start of
 * the first column while every column is empty takes the whole block back to one empty paragraph (an insert undone).
 */

/** Columns of `count` empty paragraphs, as content to insert. */
export const emptyColumns = (count: number) => ({
  type: 'columns',
  content: Array.from({ length: count }, () => ({ type: 'column', content: [{ type: 'paragraph' }] })),
});

/** Whether the caret is inside a column. */
export const inColumn = (editor: Editor) => {
  const { $from } = editor.state.selection;
  for (let d = $from.depth; d > 0; d--) if ($from.node(d).type.name === 'column') return true;
  return false;
};

/** Inserts `count` empty columns at the caret and puts the caret in the first one. */
export function insertColumns(editor: Editor, count: number) {
  return editor
    .chain()
    .insertContent(emptyColumns(count))
    .command(({ tr }) => {
      const { $from } = tr.selection;
      for (let d = $from.depth; d > 0; d--) {
        if ($from.node(d).type.name !== 'columns') continue;
        // Just inside the columns' content: +1 enters the first column, +2 its first paragraph.
        tr.setSelection(TextSelection.create(tr.doc, $from.start(d) + 2));
        return true;
      }
      return true;
    })
    .run();
}

const isEmptyColumn = (column: PMNode) => column.childCount === 1 && column.firstChild?.type.name === 'paragraph' && column.firstChild.content.size === 0;

/** The columns node with the Backspace above (the schema, HTML and Markdown unchanged). */
export function withColumnsKeys(node: TiptapNode): TiptapNode {
  return node.extend({
    addKeyboardShortcuts() {
      return {
        Backspace: ({ editor }) => {
          const { selection } = editor.state;
          const { $from } = selection;
          if (!selection.empty || $from.parentOffset !== 0 || $from.depth < 3) return false;
          const columns = $from.node(-2);
          if (columns.type.name !== 'columns' || $from.node(-1).type.name !== 'column' || $from.index(-1) !== 0) return false;
          if ($from.index(-2) === 0 && columns.content.content.every(isEmptyColumn)) {
            const from = $from.before(-2);
            const tr = editor.state.tr.replaceWith(from, from + columns.nodeSize, editor.schema.nodes.paragraph.create());
            editor.view.dispatch(tr.setSelection(TextSelection.create(tr.doc, from + 1)).scrollIntoView());
            return true;
          }
          // A column's start holds: ProseMirror's joinBackward would otherwise lift the block out of the column (an
          // isolating node has nothing to join with), splitting the columns.
          return true;
        },
      };
    },
  });
}
