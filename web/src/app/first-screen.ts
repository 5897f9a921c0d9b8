import type { QueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import { sessionQuery } from '../features/auth/session';
import { editorPageKey, loadPage } from '../features/pages/editor/page-doc';
import { levelQuery, MAX_LIMIT as LEVEL_PAGE_SIZE, type PageSummary, rootPagesQuery, type TreePage } from '../features/pages/pages.queries';
import { pageScreen } from '../features/pages/prefetch';
import { pageTree } from '../features/pages/tree/load';
import { readOpen } from '../features/pages/tree/tree.model';
import { type SpaceSummary, spacesQuery } from '../features/spaces/spaces.queries';
import { pageIdOf } from '../features/workspaces/workspace-context';
import { type WorkspaceSummary, workspacesQuery } from '../features/workspaces/workspaces.queries';
import { lazyModule } from '../ui/lazy-module';
import { ScreenLoader } from '../ui/ScreenLoader';

type RootPages = { data: PageSummary[]; meta: { total: number } };

/** What `public/boot.js` read before the app ran: each read's `data`, or null when it failed or did not apply. */
interface EarlyReads {
  workspaces: Promise<WorkspaceSummary[] | null>;
  spaces?: Promise<{ workspaceId: string; list: SpaceSummary[] } | null>;
  /** The first page (100 rows) of the tree's first level of the URL's space. */
  level?: Promise<{ spaceId: string; rows: TreePage[] } | null>;
  /** The space screen's root pages: the whole `{ data, meta }` answer. */
  roots?: Promise<{ spaceId: string; result: RootPages } | null>;
}

declare global {
  interface Window {
    __kbEarlyReads?: EarlyReads;
  }
  type EarlyReadsOfBoot = EarlyReads;
}

/** The screens' code, each loaded through one `lazyModule`, which the router renders and the early start loads. */
export const screens = {
  workspaceHome: lazyModule(() => import('../features/spaces/WorkspaceHome'), createElement(ScreenLoader)),
  space: lazyModule(() => import('../features/spaces/SpaceScreen'), createElement(ScreenLoader)),
  page: pageScreen,
  tree: pageTree,
};

const WORKSPACE_URL = /^\/w\/([^/]+)(?:\/s\/([^/]+)(?:\/p\/([^/]+))?)?\/?$/;

const decode = (s: string | undefined) => {
  try {
    return s === undefined ? undefined : decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * Starts what the first screen of this URL needs, before React renders, all at once instead of one after another as
 * each component mounts: the session and the workspace list together, the screen's code (and the tree's) beside them,
 * then the space list as soon as the workspace is known, and the tree's first level (with the levels left open on
 * this device), the space's root pages or the page's read as soon as the space is. The components then find their
 * reads in the query cache under the same keys and options. A wrong guess only costs a read nobody uses; a signed-out
 * visitor's workspace read answers 401 and is dropped at sign-in (session.tsx forgets every other query).
 *
 * The workspace list, the space list, the tree's first level and the root pages were usually read already, by
 * `public/boot.js` while this code downloaded: their answers go into the cache instead of new reads.
 */
export function startFirstScreen(client: QueryClient, pathname: string): void {
  // What boot.js read while the app's scripts downloaded (taken once: later reads go to the API).
  const early = window.__kbEarlyReads;
  window.__kbEarlyReads = undefined;
  void client.prefetchQuery(sessionQuery);
  const match = WORKSPACE_URL.exec(pathname);
  if (pathname !== '/' && !match) {
    // index.html preloaded the workspace list: take that answer now (boot.js did, when it ran), or the browser would
    // hand it (a 401, before signing in on this screen) to the first read of the list later on.
    if (!early)
      void fetch('/api/v1/workspaces', { credentials: 'same-origin' })
        .then((res) => res.body?.cancel())
        .catch(() => undefined);
    return;
  }
  const workspaces = client.ensureQueryData(answeredBy(workspacesQuery, early?.workspaces));
  // The screens ask again and show the error themselves (a signed-out visitor's 401 goes to the sign-in screen).
  workspaces.catch(() => undefined);
  if (!match) return;
  const [hostname, spaceSlug, pageRef] = [decode(match[1]), decode(match[2]), match[3]];
  if (!spaceSlug) void screens.workspaceHome.load();
  else {
    void (pageRef ? screens.page.load() : screens.space.load());
    void screens.tree.load();
  }
  const pageId = pageIdOf(pageRef);
  // The page's read needs no workspace or space: it starts with the session's.
  if (pageId) void client.prefetchQuery({ queryKey: editorPageKey(pageId), queryFn: () => loadPage(pageId), staleTime: 10_000 });
  void workspaces
    .then(async (list) => {
      const workspace = list.find((w) => w.hostname.toLowerCase() === hostname?.toLowerCase());
      if (!workspace) return;
      const earlySpaces = early?.spaces?.then((s) => (s?.workspaceId === workspace.id ? s.list : null));
      const spaces = await client.ensureQueryData(answeredBy(spacesQuery(workspace.id), earlySpaces));
      const space = spaces.find((s) => s.slug === spaceSlug);
      if (!space) return;
      // The early read is the level's first page: a level of more rows is read whole by the query's own function.
      const earlyLevel = early?.level?.then((l) => (l?.spaceId === space.id && l.rows.length < LEVEL_PAGE_SIZE ? l.rows : null));
      void client.prefetchQuery(answeredBy(levelQuery(workspace.id, space.id, null), earlyLevel));
      for (const parentId of readOpen(space.id)) void client.prefetchQuery(levelQuery(workspace.id, space.id, parentId));
      const earlyRoots = early?.roots?.then((r) => (r?.spaceId === space.id ? r.result : null));
      if (!pageRef) void client.prefetchQuery(answeredBy(rootPagesQuery(workspace.id, space.id), earlyRoots));
    })
    .catch(() => undefined);
}

/** A query's options, answered by `early` (a read boot.js started) when it brought an answer, else by their own read. */
function answeredBy<O extends { queryFn?: unknown }, T>(options: O, early: Promise<T | null> | undefined): O {
  if (!early) return options;
  const own = options.queryFn as () => Promise<T>;
  return { ...options, queryFn: async () => (await early.catch(() => null)) ?? own() };
}
