import { type Editor, Extension } from '@tiptap/core';
import { search } from 'prosemirror-search';

/** Emitted on the editor when Ctrl/Cmd-F is pressed in it: the find bar (FindBar.tsx) opens. */
export const FIND_EVENT = 'kbFind';

export const emitFind = (editor: Editor) => (editor as unknown as { emit(event: string): void }).emit(FIND_EVENT);

/**
 * Find and replace in the page: prosemirror-search keeps the query and highlights the matches (classes
 * `ProseMirror-search-match` and `ProseMirror-active-search-match`); Ctrl/Cmd-F in the text opens the bar. Outside the
 * text, and a second Ctrl/Cmd-F in the bar, is the browser's own find. Replacing is ordinary editing, so co-editors see
 * it like any other change. Adds no node or mark.
 */
export const FindReplace = Extension.create({
  name: 'findReplace',
  addProseMirrorPlugins() {
    return [search()];
  },
  addKeyboardShortcuts() {
    return {
      'Mod-f': () => {
        emitFind(this.editor);
        return true;
      },
    };
  },
});
