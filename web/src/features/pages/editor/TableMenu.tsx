import { Divider, Group, Paper } from '@mantine/core';
import {
  IconColumnInsertLeft,
  IconColumnInsertRight,
  IconColumnRemove,
  IconRowInsertBottom,
  IconRowInsertTop,
  IconRowRemove,
  IconTableColumn,
  IconTableOff,
  IconTableRow,
} from '@tabler/icons-react';
import { CellSelection } from '@tiptap/pm/tables';
import { type Editor, useEditorState } from '@tiptap/react';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { MarkButton, toolbarKeys } from './toolbar';

/** The table the selection is in, as the element its menu is placed against (the menu sits over the table's top). */
function tableAround(editor: Editor) {
  const { $from } = editor.state.selection;
  for (let depth = $from.depth; depth > 0; depth--)
    if ($from.node(depth).type.name === 'table') {
      const dom = editor.view.nodeDOM($from.before(depth));
      const table = dom instanceof HTMLElement ? (dom.matches('table') ? dom : dom.querySelector('table')) : null;
      return table ?? null;
    }
  return null;
}

/**
 * The table's menu, over a table while the caret (or a cell selection) is in it: rows and columns added above, below,
 * left or right, removed, the header row and header column switched, the table removed. Every action is Tiptap's
 * table command, so it is one undoable, co-edited change. The selection toolbar keeps text selections in cells.
 */
export function TableMenu({ editor }: { editor: Editor }) {
  const at = useTablePlace(editor);
  const can = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      deleteRow: e.can().deleteRow(),
      deleteColumn: e.can().deleteColumn(),
      headerRow: e.isActive('table') && isHeaderRow(e),
    }),
  });
  if (!at) return null;
  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => command(editor.chain().focus()).run();
  return createPortal(
    <Paper className="kb-table-menu" shadow="md" withBorder p={4} radius="md" style={{ top: at.top, left: at.left }}>
      <Group gap={2} wrap="nowrap" role="toolbar" aria-label="Table" onKeyDown={toolbarKeys(editor)}>
        <MarkButton label="Add row above" onClick={() => run((c) => c.addRowBefore())}>
          <IconRowInsertTop size={16} aria-hidden />
        </MarkButton>
        <MarkButton label="Add row below" onClick={() => run((c) => c.addRowAfter())}>
          <IconRowInsertBottom size={16} aria-hidden />
        </MarkButton>
        <MarkButton label="Add column left" onClick={() => run((c) => c.addColumnBefore())}>
          <IconColumnInsertLeft size={16} aria-hidden />
        </MarkButton>
        <MarkButton label="Add column right" onClick={() => run((c) => c.addColumnAfter())}>
          <IconColumnInsertRight size={16} aria-hidden />
        </MarkButton>
        <Divider orientation="vertical" />
        <MarkButton label="Header row" pressed={can.headerRow} onClick={() => run((c) => c.toggleHeaderRow())}>
          <IconTableRow size={16} aria-hidden />
        </MarkButton>
        <MarkButton label="Header column" onClick={() => run((c) => c.toggleHeaderColumn())}>
          <IconTableColumn size={16} aria-hidden />
        </MarkButton>
        <Divider orientation="vertical" />
        <MarkButton label="Remove row" disabled={!can.deleteRow} onClick={() => run((c) => c.deleteRow())}>
          <IconRowRemove size={16} aria-hidden />
        </MarkButton>
        <MarkButton label="Remove column" disabled={!can.deleteColumn} onClick={() => run((c) => c.deleteColumn())}>
          <IconColumnRemove size={16} aria-hidden />
        </MarkButton>
        <MarkButton label="Remove table" onClick={() => run((c) => c.deleteTable())}>
          <IconTableOff size={16} aria-hidden />
        </MarkButton>
      </Group>
    </Paper>,
    document.body,
  );
}

/** Menu height plus a gap: the menu sits this far above the table's top edge (below it when there is no room). */
const ABOVE = 44;

/**
 * Where the table menu goes (page coordinates), while the caret or a cell selection is in a table of an editable
 * editor that has focus (or while the menu itself has it); null otherwise. Follows edits, scrolling and resizing.
 */
function useTablePlace(editor: Editor) {
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  useEffect(() => {
    const place = () => {
      const { selection } = editor.state;
      const inMenu = document.activeElement?.closest('.kb-table-menu') != null;
      const table =
        editor.isEditable && (editor.view.hasFocus() || inMenu) && !editor.isActive('link') && (selection.empty || selection instanceof CellSelection)
          ? tableAround(editor)
          : null;
      if (!table) return setAt(null);
      const box = table.getBoundingClientRect();
      const top = box.top - ABOVE > 56 ? box.top - ABOVE : box.bottom + 6;
      setAt({ top: top + window.scrollY, left: box.left + window.scrollX });
    };
    const later = () => requestAnimationFrame(place);
    editor.on('transaction', place);
    editor.on('focus', place);
    editor.on('blur', later);
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      editor.off('transaction', place);
      editor.off('focus', place);
      editor.off('blur', later);
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [editor]);
  return at;
}

/** Whether the table's first row is a header row (its cells are header cells). */
function isHeaderRow(editor: Editor): boolean {
  const { $from } = editor.state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type.name === 'table') return node.firstChild?.firstChild?.type.name === 'tableHeader';
  }
  return false;
}
