import { Extension } from '@tiptap/core';
import type { Node as PmNode, ResolvedPos } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, Selection, TextSelection, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** The class editor.css keeps top-level blocks rendered by (the others are skipped while out of view). */
export const NEAR_CARET = 'kb-near-caret';

/** Top-level blocks (as [from, to) positions) from the one before `$pos`'s block to the one after it. */
function blocksAround(doc: PmNode, $pos: ResolvedPos): Array<[number, number]> {
  const index = $pos.depth > 0 ? $pos.index(0) : Math.min($pos.index(0), doc.childCount - 1);
  const blocks: Array<[number, number]> = [];
  for (let i = Math.max(0, index - 1); i <= Math.min(doc.childCount - 1, index + 1); i++) {
    const from = $pos.posAtIndex(i, 0);
    blocks.push([from, from + doc.child(i).nodeSize]);
  }
  return blocks;
}

/** Moves the caret (or, extending, the selection's head) to the document's start or end, scrolled into view. */
function toDocEdge(edge: 'start' | 'end', extend: boolean) {
  return (state: EditorState, dispatch?: (tr: Transaction) => void) => {
    const target = edge === 'start' ? Selection.atStart(state.doc) : Selection.atEnd(state.doc);
    const selection = extend ? TextSelection.between(state.selection.$anchor, target.$head) : target;
    dispatch?.(state.tr.setSelection(selection).scrollIntoView());
    return true;
  };
}

/**
 * Marks the top-level blocks at and beside both ends of the selection, so they are always laid out. Blocks out of view
 * are skipped by the browser (`content-visibility: auto` in editor.css), which makes a key on a long page cost what
 * the blocks on screen cost; but a block that is skipped when it is made (a new paragraph after Enter) can drop the
 * first keys typed into it, so the blocks where typing happens never are. The browser's own moves to the document's start and end (Ctrl+Home/End,
 * ⌘↑/↓, with Shift to select) stop at a skipped block's start, so they are ProseMirror's here.
 */
export const BlocksNearCaret = Extension.create({
  name: 'blocksNearCaret',
  addKeyboardShortcuts() {
    const run = (command: ReturnType<typeof toDocEdge>) => () => command(this.editor.state, this.editor.view.dispatch);
    return {
      'Ctrl-Home': run(toDocEdge('start', false)),
      'Ctrl-End': run(toDocEdge('end', false)),
      'Shift-Ctrl-Home': run(toDocEdge('start', true)),
      'Shift-Ctrl-End': run(toDocEdge('end', true)),
      'Meta-ArrowUp': run(toDocEdge('start', false)),
      'Meta-ArrowDown': run(toDocEdge('end', false)),
      'Shift-Meta-ArrowUp': run(toDocEdge('start', true)),
      'Shift-Meta-ArrowDown': run(toDocEdge('end', true)),
    };
  },
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('blocksNearCaret'),
        props: {
          decorations({ doc, selection }) {
            if (!doc.childCount) return null;
            const seen = new Set<number>();
            const decorations: Decoration[] = [];
            for (const [from, to] of [...blocksAround(doc, selection.$from), ...blocksAround(doc, selection.$to)]) {
              if (seen.has(from)) continue;
              seen.add(from);
              decorations.push(Decoration.node(from, to, { class: NEAR_CARET }));
            }
            return DecorationSet.create(doc, decorations);
          },
        },
      }),
    ];
  },
});
