import { notifications } from '@mantine/notifications';
import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call, data } from '../../../api/client';
import { messageOf } from '../../../api/errors';
import { spaceKeys } from '../../spaces/spaces.queries';
import { notePageTitle } from '../editor/page-titles';
import { EMPTY_DOC, type PageSummary, pageKeys, type TreePage } from '../pages.queries';

interface Scope {
  workspaceId: string;
  spaceId: string;
}

type Snapshot = [QueryKey, unknown][];

/** Stops in-flight tree reads (they would overwrite the optimistic state) and keeps every level for a rollback. */
async function snapshotTree(qc: QueryClient, spaceId: string): Promise<Snapshot> {
  await qc.cancelQueries({ queryKey: pageKeys.tree(spaceId) });
  return qc.getQueriesData({ queryKey: pageKeys.tree(spaceId) });
}

function rollback(qc: QueryClient, snapshot: Snapshot | undefined) {
  for (const [key, value] of snapshot ?? []) qc.setQueryData(key, value);
}

/** Refreshes the levels holding these pages and the levels below them (not every open level of a big tree). */
function refreshAround(qc: QueryClient, spaceId: string, ids: (string | null)[]) {
  const wanted = new Set(ids);
  qc.invalidateQueries({
    queryKey: pageKeys.tree(spaceId),
    predicate: (q) => {
      const parent = q.queryKey[3] === 'root' ? null : (q.queryKey[3] as string);
      return wanted.has(parent) || ((q.state.data as TreePage[] | undefined)?.some((p) => wanted.has(p.id)) ?? false);
    },
  });
}

function failed(action: string) {
  return (err: unknown) => notifications.show({ color: 'red', title: `Could not ${action}`, message: messageOf(err) });
}

/** Applies `fn` to the page wherever it appears in the loaded levels of the tree. */
function patchTreePage(qc: QueryClient, spaceId: string, pageId: string, fn: (p: TreePage) => TreePage) {
  qc.setQueriesData<TreePage[]>({ queryKey: pageKeys.tree(spaceId) }, (level) =>
    level?.some((p) => p.id === pageId) ? level.map((p) => (p.id === pageId ? fn(p) : p)) : level,
  );
}

/** Creates a page at the root or under a page, at the end of its siblings: untitled (an empty title, shown as "Untitled") unless named. */
export function useCreatePage({ workspaceId, spaceId }: Scope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { parentId: string | null; title?: string }) =>
      (await data(
        api.POST('/api/v1/pages', {
          body: { workspaceId, spaceId, parentId: input.parentId, title: input.title ?? '', content: EMPTY_DOC },
        }),
      )) as PageSummary,
    onSuccess: (_page, input) => {
      if (input.parentId) patchTreePage(qc, spaceId, input.parentId, (p) => ({ ...p, hasChildren: true }));
      qc.invalidateQueries({ queryKey: pageKeys.level(spaceId, input.parentId) });
      qc.invalidateQueries({ queryKey: pageKeys.roots(spaceId) });
      qc.invalidateQueries({ queryKey: spaceKeys.all(workspaceId) });
    },
    onError: failed('create the page'),
  });
}

/** Renames a page: the tree shows the new title at once and goes back to the old one if the service refuses. */
export function useRenamePage({ spaceId }: Scope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { pageId: string; title: string }) =>
      (await data(api.PUT('/api/v1/pages/{pageId}', { params: { path: { pageId: input.pageId } }, body: { title: input.title } }))) as PageSummary,
    onMutate: async (input) => {
      const snapshot = await snapshotTree(qc, spaceId);
      patchTreePage(qc, spaceId, input.pageId, (p) => ({ ...p, title: input.title }));
      return { snapshot };
    },
    onSuccess: (page) => notePageTitle(page.workspaceId, page),
    onError: (err, _input, context) => {
      rollback(qc, context?.snapshot);
      failed('rename the page')(err);
    },
    onSettled: (_page, _err, input) => {
      qc.invalidateQueries({ queryKey: pageKeys.page(input.pageId) });
      refreshAround(qc, spaceId, [input.pageId]);
      qc.invalidateQueries({ queryKey: pageKeys.roots(spaceId) });
    },
  });
}

/** Moves a page (and everything below it) to the trash; it leaves the tree at once. */
export function useTrashPage({ workspaceId, spaceId }: Scope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (page: TreePage) => call(api.DELETE('/api/v1/pages/{pageId}', { params: { path: { pageId: page.id }, query: { workspaceId } } })),
    onMutate: async (page) => {
      const snapshot = await snapshotTree(qc, spaceId);
      qc.setQueryData<TreePage[]>(pageKeys.level(spaceId, page.parentId), (level) => level?.filter((p) => p.id !== page.id));
      return { snapshot };
    },
    onError: (err, _page, context) => {
      rollback(qc, context?.snapshot);
      failed('move the page to the trash')(err);
    },
    onSettled: (_r, _err, page) => {
      refreshAround(qc, spaceId, [page.parentId]);
      qc.invalidateQueries({ queryKey: pageKeys.roots(spaceId) });
      qc.invalidateQueries({ queryKey: pageKeys.trash(workspaceId, spaceId) });
      qc.invalidateQueries({ queryKey: spaceKeys.all(workspaceId) });
    },
  });
}

/** Where a dragged page lands: under `parentId`, right after or before a sibling (else last). */
export interface MoveInput {
  page: TreePage;
  parentId: string | null;
  afterId?: string;
  beforeId?: string;
}

/** Moves or reorders a page: the tree shows it in its new place at once, and goes back if the service refuses. */
export function useMovePage({ spaceId }: Scope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ page, parentId, afterId, beforeId }: MoveInput) =>
      (await data(api.PUT('/api/v1/pages/{pageId}', { params: { path: { pageId: page.id } }, body: { parentId, afterId, beforeId } }))) as PageSummary,
    onMutate: async ({ page, parentId, afterId, beforeId }) => {
      const snapshot = await snapshotTree(qc, spaceId);
      const moved = { ...page, parentId };
      qc.setQueryData<TreePage[]>(pageKeys.level(spaceId, page.parentId), (level) => level?.filter((p) => p.id !== page.id));
      qc.setQueryData<TreePage[]>(pageKeys.level(spaceId, parentId), (level) => {
        if (!level) return level;
        const rest = level.filter((p) => p.id !== page.id);
        const anchor = rest.findIndex((p) => p.id === (afterId ?? beforeId));
        const at = anchor < 0 ? rest.length : afterId ? anchor + 1 : anchor;
        return [...rest.slice(0, at), moved, ...rest.slice(at)];
      });
      if (parentId) patchTreePage(qc, spaceId, parentId, (p) => ({ ...p, hasChildren: true }));
      return { snapshot };
    },
    onError: (err, _input, context) => {
      rollback(qc, context?.snapshot);
      failed('move the page')(err);
    },
    // Positions and "has children" flags come from the service once it has answered.
    onSettled: (_r, _err, { page, parentId }) => refreshAround(qc, spaceId, [page.parentId, parentId]),
  });
}
