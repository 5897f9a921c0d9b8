import type { QueryClient } from '@tanstack/react-query';
import { sessionQuery } from '../features/auth/session';
import { editorPageKey, loadPage } from '../features/pages/editor/page-doc';
import { levelQuery, rootPagesQuery } from '../features/pages/pages.queries';
import { loadPageScreen } from '../features/pages/prefetch';
import { readOpen } from '../features/pages/tree/tree.model';
import { spacesQuery } from '../features/spaces/spaces.queries';
import { pageIdOf } from '../features/workspaces/workspace-context';
import { workspacesQuery } from '../features/workspaces/workspaces.queries';

/** The screens' code, each imported by one function so the router's lazy screens and the early start share it. */
export const screens = {
  workspaceHome: () => import('../features/spaces/WorkspaceHome'),
  space: () => import('../features/spaces/SpaceScreen'),
  page: loadPageScreen,
  tree: () => import('../features/pages/tree/PageTree'),
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
 */
export function startFirstScreen(client: QueryClient, pathname: string): void {
  void client.prefetchQuery(sessionQuery);
  const match = WORKSPACE_URL.exec(pathname);
  if (pathname !== '/' && !match) {
    // index.html preloaded the workspace list: take that answer now, or the browser would hand it (a 401, before
    // signing in on this screen) to the first read of the list later on.
    void fetch('/api/v1/workspaces', { credentials: 'same-origin' })
      .then((res) => res.body?.cancel())
      .catch(() => undefined);
    return;
  }
  const workspaces = client.ensureQueryData(workspacesQuery);
  // The screens ask again and show the error themselves (a signed-out visitor's 401 goes to the sign-in screen).
  workspaces.catch(() => undefined);
  if (!match) return;
  const [hostname, spaceSlug, pageRef] = [decode(match[1]), decode(match[2]), match[3]];
  if (!spaceSlug) void screens.workspaceHome();
  else {
    void (pageRef ? screens.page() : screens.space());
    void screens.tree();
  }
  const pageId = pageIdOf(pageRef);
  // The page's read needs no workspace or space: it starts with the session's.
  if (pageId) void client.prefetchQuery({ queryKey: editorPageKey(pageId), queryFn: () => loadPage(pageId), staleTime: 10_000 });
  void workspaces
    .then(async (list) => {
      const workspace = list.find((w) => w.hostname.toLowerCase() === hostname?.toLowerCase());
      if (!workspace) return;
      const spaces = await client.ensureQueryData(spacesQuery(workspace.id));
      const space = spaces.find((s) => s.slug === spaceSlug);
      if (!space) return;
      for (const parentId of [null, ...readOpen(space.id)]) void client.prefetchQuery(levelQuery(workspace.id, space.id, parentId));
      if (!pageRef) void client.prefetchQuery(rootPagesQuery(workspace.id, space.id));
    })
    .catch(() => undefined);
}
