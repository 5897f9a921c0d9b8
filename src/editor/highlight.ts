import { Mark, markInputRule, markPasteRule, mergeAttributes } from '@tiptap/core';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    highlight: {
      /** Highlights the selection. */
      setHighlight: () => ReturnType;
      /** Highlights the selection, or takes the highlight off it. */
      toggleHighlight: () => ReturnType;
      /** Takes the highlight off the selection. */
      unsetHighlight: () => ReturnType;
    };
  }
}

/** `==text==` typed (ends the rule) or pasted: the text between becomes highlighted (as Tiptap's own Highlight reads it). */
const TYPED = /(?:^|\s)(==(?!\s+==)((?:[^\s=]|[^\s=][^=]*[^\s=]))==(?!\s+==))$/;
const PASTED = /(?:^|\s)(==(?!\s+==)((?:[^\s=]|[^\s=][^=]*[^\s=]))==(?!\s+==))/g;

/**
 * Highlighted text, one colour (the theme's): `<mark>` in HTML, `==text==` in Markdown (see markdown.ts). A mark
 * without attributes, so nothing about it needs validating beyond its name; text extraction ignores marks.
 */
export const Highlight = Mark.create({
  name: 'highlight',
  parseHTML() {
    return [{ tag: 'mark' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['mark', mergeAttributes(HTMLAttributes), 0];
  },
  addCommands() {
    return {
      setHighlight:
        () =>
        ({ commands }) =>
          commands.setMark(this.name),
      toggleHighlight:
        () =>
        ({ commands }) =>
          commands.toggleMark(this.name),
      unsetHighlight:
        () =>
        ({ commands }) =>
          commands.unsetMark(this.name),
    };
  },
  addKeyboardShortcuts() {
    return { 'Mod-Shift-h': () => this.editor.commands.toggleHighlight() };
  },
  addInputRules() {
    return [markInputRule({ find: TYPED, type: this.type })];
  },
  addPasteRules() {
    return [markPasteRule({ find: PASTED, type: this.type })];
  },
});
