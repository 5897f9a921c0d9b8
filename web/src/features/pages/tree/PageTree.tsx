import { DndContext, type DragEndEvent, DragOverlay, type DragStartEvent, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, messageOf } from '../../../api/errors';
import { ErrorNotice } from '../../../ui/ErrorNotice';
import type { SpaceSummary } from '../../spaces/spaces.queries';
import { canEditIn, pageIdOf, paths, useWorkspace } from '../../workspaces/workspace-context';
import { levelQuery, NEW_PAGE, slugOfTitle, type TreePage } from '../pages.queries';
import { prefetchPage, prefetchPageScreenWhenIdle } from '../prefetch';
import { type DropZone, type RowActions, type Step, TreeRow } from './TreeRow';
import { flattenTree, isSelfOrDescendant, type LevelState, useOpenPages } from './tree.model';
import classes from './tree.module.css';
import { useCreatePage, useMovePage, useRenamePage, useTrashPage } from './tree.mutations';
import { useRevealPage } from './tree.reveal';

const ROW_HEIGHT = 30;

interface DropTarget {
  id: string;
  zone: DropZone;
}

/**
 * The page tree of one space, in the sidebar: levels load when a page is opened, open pages are remembered per space,
 * only the rows in view exist in the DOM (a space of 10,000 pages scrolls like one of ten), and pages drag to a new
 * place: onto a row's middle to go under it, onto its top or bottom edge to go before or after it.
 */
export default function PageTree({ space }: { space: SpaceSummary }) {
  const workspace = useWorkspace();
  const scope = { workspaceId: workspace.id, spaceId: space.id };
  const navigate = useNavigate();
  const currentId = pageIdOf(useParams().pageRef);
  const canEdit = canEditIn(workspace.role);
  const { open, setOpen } = useOpenPages(space.id);

  const parents = useMemo(() => [null, ...open], [open]);
  const combine = useCallback(
    (results: { data?: TreePage[]; isPending: boolean; error: unknown }[]) =>
      new Map<string | null, LevelState>(results.map((r, i) => [parents[i], { pages: r.data, isPending: r.isPending, error: r.error }])),
    [parents],
  );
  const levels = useQueries({
    queries: parents.map((parentId) => levelQuery(workspace.id, space.id, parentId)),
    combine,
  });
  const rows = useMemo(() => flattenTree(levels, open), [levels, open]);
  const byId = useMemo(() => {
    const map = new Map<string, TreePage>();
    for (const level of levels.values()) for (const p of level.pages ?? []) map.set(p.id, p);
    return map;
  }, [levels]);

  // A remembered open page that is gone (trashed, moved to another space) is forgotten rather than shown as an error.
  useEffect(() => {
    for (const [id, level] of levels)
      if (id && level.error instanceof ApiError && (level.error.status === 404 || level.error.status === 410)) setOpen(id, false);
  }, [levels, setOpen]);

  // The first screen is there once the tree shows: the page screen's code can come now, while the person reads.
  const shown = rows.length > 0;
  useEffect(() => (shown ? prefetchPageScreenWhenIdle() : undefined), [shown]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => rows[i].key,
  });

  // A page the tree does not show yet (a deep link, a search result) gets its parents opened.
  const openPage = useCallback((id: string) => setOpen(id, true), [setOpen]);
  useRevealPage(currentId ?? null, Boolean(currentId && byId.has(currentId)), openPage);

  // Bring the open page into view once per page: within the tree's own scroller (the row may not exist in the DOM
  // until then), then within the sidebar. On a reload the rows can be there before the scroller is laid out, so the
  // scroll is asked again every few frames until the row is in the DOM (for up to about two seconds).
  const scrolledTo = useRef<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!currentId || scrolledTo.current === currentId) return;
    const i = rows.findIndex((r) => r.kind === 'page' && r.page.id === currentId);
    if (i < 0) return;
    scrolledTo.current = currentId;
    let frame = 0;
    const reveal = () => {
      if (!mounted.current || scrolledTo.current !== currentId) return;
      const row = scrollRef.current?.querySelector(`[data-page-id="${currentId}"]`);
      if (row) return row.scrollIntoView({ block: 'nearest' });
      if (frame % 10 === 0) virtualizer.scrollToIndex(i, { align: 'auto' });
      if (++frame < 120) requestAnimationFrame(reveal);
    };
    reveal();
  }, [currentId, rows, virtualizer]);

  const queryClient = useQueryClient();
  const create = useCreatePage(scope);
  const rename = useRenamePage(scope);
  const trash = useTrashPage(scope);
  const move = useMovePage(scope);
  const [editing, setEditing] = useState<string | null>(null);
  const hrefOf = (p: { id: string; title: string }) => paths.page(workspace.hostname, space.slug, { id: p.id, slug: slugOfTitle(p.title) });

  const siblingsOf = (page: TreePage) => levels.get(page.parentId)?.pages ?? [];
  const actions: RowActions = {
    toggle: (page, value) => setOpen(page.id, value),
    steps: (page) => {
      const siblings = siblingsOf(page);
      const i = siblings.findIndex((p) => p.id === page.id);
      const steps: Step[] = [];
      if (i > 0) steps.push('up');
      if (i >= 0 && i < siblings.length - 1) steps.push('down');
      if (i > 0) steps.push('in');
      if (page.parentId) steps.push('out');
      return steps;
    },
    step: (page, step) => {
      const siblings = siblingsOf(page);
      const i = siblings.findIndex((p) => p.id === page.id);
      if (step === 'up') move.mutate({ page, parentId: page.parentId, beforeId: siblings[i - 1].id });
      if (step === 'down') move.mutate({ page, parentId: page.parentId, afterId: siblings[i + 1].id });
      if (step === 'in') {
        move.mutate({ page, parentId: siblings[i - 1].id });
        setOpen(siblings[i - 1].id, true);
      }
      const parent = page.parentId ? byId.get(page.parentId) : undefined;
      if (step === 'out' && parent) move.mutate({ page, parentId: parent.parentId, afterId: parent.id });
    },
    newChild: (page) =>
      create.mutate(
        { parentId: page.id },
        {
          onSuccess: (created) => {
            setOpen(page.id, true);
            navigate(hrefOf(created), { state: NEW_PAGE });
          },
        },
      ),
    rename: (page, title) => rename.mutate({ pageId: page.id, title }),
    prefetch: (page) => prefetchPage(queryClient, page.id),
    trash: (page) =>
      trash.mutate(page, {
        onSuccess: () => {
          notifications.show({ message: `“${page.title}” is in the trash.` });
          if (currentId && isSelfOrDescendant(byId, currentId, page.id)) navigate(paths.space(workspace.hostname, space.slug));
        },
      }),
  };

  // Dragging: dnd-kit runs the gesture and the floating label; the drop target is the row under the pointer.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const [dragged, setDragged] = useState<TreePage | null>(null);
  const [target, setTarget] = useState<DropTarget | null>(null);
  const targetRef = useRef<DropTarget | null>(null);
  useEffect(() => {
    if (!dragged) return;
    const onMove = (e: PointerEvent) => {
      const row = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('[data-tree-row]');
      const id = row && scrollRef.current?.contains(row) ? row.dataset.pageId : undefined;
      let next: DropTarget | null = null;
      if (row && id && !isSelfOrDescendant(byId, id, dragged.id)) {
        const rect = row.getBoundingClientRect();
        const at = (e.clientY - rect.top) / rect.height;
        next = { id, zone: at < 0.25 ? 'before' : at > 0.75 ? 'after' : 'inside' };
      }
      if (next?.id !== targetRef.current?.id || next?.zone !== targetRef.current?.zone) {
        targetRef.current = next;
        setTarget(next);
      }
    };
    window.addEventListener('pointermove', onMove);
    return () => window.removeEventListener('pointermove', onMove);
  }, [dragged, byId]);

  const onDragStart = (e: DragStartEvent) => setDragged((e.active.data.current as { page: TreePage }).page);
  const onDragEnd = (_e: DragEndEvent | null) => {
    const page = dragged;
    const drop = targetRef.current;
    setDragged(null);
    setTarget(null);
    targetRef.current = null;
    const onto = drop && byId.get(drop.id);
    if (!page || !drop || !onto) return;
    if (drop.zone === 'inside') {
      move.mutate({ page, parentId: onto.id });
      setOpen(onto.id, true);
    } else if (drop.zone === 'before') move.mutate({ page, parentId: onto.parentId, beforeId: onto.id });
    else move.mutate({ page, parentId: onto.parentId, afterId: onto.id });
  };

  // Arrow keys walk the rows (scrolling the virtual list), Right/Left open and close, F2 renames.
  const focusRow = (i: number) => {
    if (i < 0 || i >= rows.length) return;
    virtualizer.scrollToIndex(i, { align: 'auto' });
    const focus = (tries: number) => {
      const link = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${i}"] [data-row-link]`);
      if (link) link.focus();
      else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    requestAnimationFrame(() => focus(5));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const el = e.target as HTMLElement;
    if (el.tagName === 'INPUT') return;
    const rowEl = el.closest<HTMLElement>('[data-tree-row]');
    if (!rowEl) return;
    const i = Number(rowEl.dataset.index);
    const row = rows[i];
    if (row?.kind !== 'page') return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusRow(i + 1),
      ArrowUp: () => focusRow(i - 1),
      Home: () => focusRow(0),
      End: () => focusRow(rows.length - 1),
      ArrowRight: () => (row.page.hasChildren && !row.open ? setOpen(row.page.id, true) : focusRow(i + 1)),
      ArrowLeft: () => (row.open ? setOpen(row.page.id, false) : focusRow(rows.findIndex((r) => r.kind === 'page' && r.page.id === row.page.parentId))),
      F2: () => canEdit && setEditing(row.page.id),
    };
    const handler = keys[e.key];
    if (handler && !(e.key.startsWith('Arrow') && el.tagName === 'BUTTON' && el.getAttribute('aria-haspopup'))) {
      e.preventDefault();
      handler();
    }
  };

  const root = levels.get(null);
  if (root?.isPending) return <Loader size="xs" aria-label="Loading pages" m="xs" />;
  if (root?.error) return <ErrorNotice error={root.error} title="Pages could not load" />;
  if (rows.length === 0)
    return (
      <Text size="xs" c="dimmed" px="sm" py={4}>
        No pages yet
      </Text>
    );

  return (
    <DndContext sensors={sensors} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => onDragEnd(null)}>
      <div
        ref={scrollRef}
        role="tree"
        aria-label={`Pages of ${space.name}`}
        className={classes.scroller}
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
        tabIndex={-1}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            const style = { position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` } as const;
            if (row.kind !== 'page')
              return (
                <div key={item.key} className={classes.note} style={{ ...style, paddingLeft: row.depth * 14 + 30 }}>
                  {row.kind === 'loading' && <Loader size={12} aria-label="Loading pages" />}
                  {row.kind === 'empty' && 'No pages inside'}
                  {row.kind === 'error' && (
                    <Text size="xs" c="red" role="alert" truncate>
                      {messageOf(row.error)}
                    </Text>
                  )}
                </div>
              );
            return (
              <TreeRow
                key={item.key}
                page={row.page}
                depth={row.depth}
                open={row.open}
                posinset={row.posinset}
                setsize={row.setsize}
                index={item.index}
                href={hrefOf(row.page)}
                current={row.page.id === currentId}
                canEdit={canEdit}
                editing={editing === row.page.id}
                setEditing={setEditing}
                drop={target?.id === row.page.id ? target.zone : null}
                actions={actions}
                style={style}
              />
            );
          })}
        </div>
      </div>
      <DragOverlay dropAnimation={null}>{dragged && <div className={classes.overlay}>{dragged.title}</div>}</DragOverlay>
    </DndContext>
  );
}
