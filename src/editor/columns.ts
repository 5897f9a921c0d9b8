import { Node } from '@tiptap/core';

/**
 * Columns: blocks side by side. `columns` holds two or three `column`s (the schema's `column{2,3}`: one column, or
 * four and more, is refused); a `column` holds any blocks (`block+`), columns included: nesting is not forbidden, the
 * general depth limit of validate.ts bounds it (the editor's "/" menu only offers columns outside a column). How many
 * columns there are is the number of children, no attribute of its own (nothing can disagree with it).
 * Markdown `::::columns` / `:::column` … `:::` / `::::` (markdown-blocks.ts); HTML
 * `<div data-type="columns" class="columns"><div data-type="column">…</div>…</div>`, laid out by the stylesheet as a
 * CSS grid (one column per child, stacked on a narrow screen).
 */

export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 3;

export const Columns = Node.create({
  name: 'columns',
  group: 'block',
  content: `column{${MIN_COLUMNS},${MAX_COLUMNS}}`,
  defining: true,
  isolating: true,
  parseHTML() {
    return [{ tag: 'div[data-type="columns"]' }];
  },
  renderHTML() {
    return ['div', { 'data-type': 'columns', class: 'columns' }, 0];
  },
});

export const Column = Node.create({
  name: 'column',
  content: 'block+',
  defining: true,
  isolating: true,
  parseHTML() {
    return [{ tag: 'div[data-type="column"]' }];
  },
  renderHTML() {
    return ['div', { 'data-type': 'column' }, 0];
  },
});

export const columnExtensions = [Columns, Column];
