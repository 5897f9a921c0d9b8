import { useDraggable } from '@dnd-kit/core';
import { ActionIcon, Menu, TextInput } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowLeft,
  IconArrowRight,
  IconArrowUp,
  IconChevronDown,
  IconChevronRight,
  IconDots,
  IconFilePlus,
  IconFileText,
  IconPencil,
  IconTrash,
} from '@tabler/icons-react';
import { type CSSProperties, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { LazyMenu } from '../../../ui/LazyMenu';
import type { TreePage } from '../pages.queries';
import classes from './tree.module.css';

export type DropZone = 'before' | 'inside' | 'after';

/** Keyboard-friendly moves (the same as dragging): up or down among siblings, into the page above, out of the parent. */
export type Step = 'up' | 'down' | 'in' | 'out';

export interface RowActions {
  toggle(page: TreePage, open: boolean): void;
  /** The moves this page can make where it is now. */
  steps(page: TreePage): Step[];
  step(page: TreePage, step: Step): void;
  newChild(page: TreePage): void;
  rename(page: TreePage, title: string): void;
  trash(page: TreePage): void;
  /** The pointer or focus is on the row: a click may follow, so get the page ready. */
  prefetch(page: TreePage): void;
}

interface Props {
  page: TreePage;
  depth: number;
  open: boolean;
  posinset: number;
  setsize: number;
  index: number;
  href: string;
  current: boolean;
  canEdit: boolean;
  editing: boolean;
  setEditing(id: string | null): void;
  drop: DropZone | null;
  actions: RowActions;
  style: CSSProperties;
}

const INDENT = 14;
const STEP_LABELS: Record<Step, string> = { up: 'Move up', down: 'Move down', in: 'Move into the page above', out: 'Move out of the parent page' };
const STEP_ICONS: Record<Step, ReactNode> = {
  up: <IconArrowUp size={14} />,
  down: <IconArrowDown size={14} />,
  in: <IconArrowRight size={14} />,
  out: <IconArrowLeft size={14} />,
};

/** One page of the tree: expander, title link, and its "…" menu; the whole row drags (after a 6 px move). */
export function TreeRow({ page, depth, open, posinset, setsize, index, href, current, canEdit, editing, setEditing, drop, actions, style }: Props) {
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: page.id, data: { page }, disabled: !canEdit || editing });
  const title = page.title || 'Untitled';
  return (
    <div
      ref={setNodeRef}
      role="treeitem"
      aria-label={title}
      aria-level={depth + 1}
      aria-posinset={posinset}
      aria-setsize={setsize}
      aria-expanded={page.hasChildren ? open : undefined}
      aria-selected={current}
      tabIndex={-1}
      data-index={index}
      data-page-id={page.id}
      data-tree-row=""
      data-current={current || undefined}
      data-dragging={isDragging || undefined}
      data-drop={drop ?? undefined}
      className={classes.row}
      style={{ ...style, paddingLeft: 6 + depth * INDENT }}
      onPointerEnter={() => actions.prefetch(page)}
      onFocus={() => actions.prefetch(page)}
      {...listeners}
    >
      {page.hasChildren ? (
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`${open ? 'Collapse' : 'Expand'} ${title}`} onClick={() => actions.toggle(page, !open)}>
          {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        </ActionIcon>
      ) : (
        <span style={{ width: 22, flex: 'none' }} aria-hidden>
          <IconFileText size={14} style={{ margin: '0 4px', opacity: 0.5 }} />
        </span>
      )}
      {page.icon && (
        <span aria-hidden style={{ flex: 'none' }}>
          {page.icon}
        </span>
      )}
      {editing ? (
        <RenameInput
          title={page.title}
          onDone={(next) => {
            setEditing(null);
            if (next !== null && next !== page.title) actions.rename(page, next);
          }}
        />
      ) : (
        <Link to={href} className={classes.title} aria-current={current ? 'page' : undefined} draggable={false} data-row-link="">
          {title}
        </Link>
      )}
      {canEdit && !editing && <RowMenu page={page} title={title} actions={actions} setEditing={setEditing} />}
    </div>
  );
}

/** The row's "…" menu, built on its first open (LazyMenu). */
function RowMenu({ page, title, actions, setEditing }: { page: TreePage; title: string; actions: RowActions; setEditing(id: string | null): void }) {
  return (
    <LazyMenu
      position="bottom-end"
      withinPortal
      target={
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Page actions: ${title}`} className={classes.actions}>
          <IconDots size={14} />
        </ActionIcon>
      }
    >
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFilePlus size={14} />} onClick={() => actions.newChild(page)}>
          New page
        </Menu.Item>
        <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setEditing(page.id)}>
          Rename
        </Menu.Item>
        {actions.steps(page).length > 0 && <Menu.Divider />}
        {actions.steps(page).map((step) => (
          <Menu.Item key={step} leftSection={STEP_ICONS[step]} onClick={() => actions.step(page, step)}>
            {STEP_LABELS[step]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => actions.trash(page)}>
          Move to trash
        </Menu.Item>
      </Menu.Dropdown>
    </LazyMenu>
  );
}

/** The inline title field: Enter or leaving it saves, Escape cancels; an empty title is not saved. */
function RenameInput({ title, onDone }: { title: string; onDone(next: string | null): void }) {
  const [value, setValue] = useState(title);
  const [done, setDone] = useState(false);
  const finish = (next: string | null) => {
    if (done) return;
    setDone(true);
    onDone(next?.trim() ? next.trim() : null);
  };
  return (
    <TextInput
      aria-label="Page title"
      size="xs"
      value={value}
      autoFocus
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setValue(e.currentTarget.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') finish(value);
        if (e.key === 'Escape') finish(null);
      }}
      onBlur={() => finish(value)}
      onPointerDown={(e) => e.stopPropagation()}
      style={{ flex: 1, minWidth: 0 }}
      maxLength={500}
    />
  );
}
