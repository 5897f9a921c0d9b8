// @ts-check
/**
 * The first screen's reads, started by a script of its own (~1.5 KB compressed, a plain file the build copies as it
 * is) while the app's ~900 KB of scripts download and then evaluate (300–500 ms on a 2-core machine). Started from the
 * app (app/first-screen.ts), the space list and the tree's first level waited for that evaluation, then for each
 * other. index.html loads it as a classic, blocking script before the app's: so it is asked for first (an `async`
 * script came last of the 13 files, after the app's own) and has run before the app's modules do (they run once the
 * document is parsed).
 *
 * For a `/w/<workspace>/s/<space>…` URL: the workspace list (taking index.html's preloaded answer), then the space
 * list, then the tree's first level and, on the space screen, its root pages. The answers are left, parsed, on
 * `window.__kbEarlyReads` (types in app/first-screen.ts), and `startFirstScreen` puts them in the query cache under the
 * keys the components read. A read that fails leaves null, and the app reads it again the usual way.
 */

(() => {
  // The page sizes of pages.queries.ts (the API's largest; a level of more rows is read on from its second page there).
  const LEVEL_LIMIT = 100;
  const ROOTS_LIMIT = 100;
  const WORKSPACE_URL = /^\/w\/([^/]+)(?:\/s\/([^/]+)(?:\/p\/([^/]+))?)?\/?$/;

  /** @param {string | undefined} s */
  const decode = (s) => {
    try {
      return s === undefined ? undefined : decodeURIComponent(s);
    } catch {
      return s;
    }
  };

  /** The parsed answer of a GET, or null when it failed. @param {string} url @returns {Promise<any>} */
  const get = async (url) => {
    try {
      const res = await fetch(url, { credentials: 'same-origin' });
      if (res.ok) return await res.json();
      void res.body?.cancel();
    } catch {}
    return null;
  };

  /** @returns {EarlyReadsOfBoot} */
  const start = () => {
    // Taken on every screen: a preloaded answer left waiting would be handed to the first later read of that URL (a
    // 401 from before signing in, to the read after it).
    const workspaces = get('/api/v1/workspaces').then((body) => body?.data ?? null);
    const match = WORKSPACE_URL.exec(window.location.pathname);
    const hostname = decode(match?.[1]);
    const spaceSlug = decode(match?.[2]);
    if (!hostname || !spaceSlug) return { workspaces };
    const spaces = workspaces.then(async (list) => {
      const workspace = list?.find((/** @type {{ hostname: string }} */ w) => w.hostname.toLowerCase() === hostname.toLowerCase());
      if (!workspace) return null;
      const body = await get(`/api/v1/spaces?workspaceId=${encodeURIComponent(workspace.id)}`);
      return body ? { workspaceId: workspace.id, list: body.data } : null;
    });
    const space = spaces.then((s) => {
      const found = s?.list.find((/** @type {{ slug: string }} */ x) => x.slug === spaceSlug);
      return s && found ? { workspaceId: s.workspaceId, spaceId: found.id } : null;
    });
    /** @param {{ workspaceId: string, spaceId: string }} s @param {string} rest */
    const pages = (s, rest) =>
      `/api/v1/pages?workspaceId=${encodeURIComponent(s.workspaceId)}&spaceId=${encodeURIComponent(s.spaceId)}&parentId=null&${rest}`;
    const level = space.then(async (s) => {
      const body = s && (await get(pages(s, `view=tree&limit=${LEVEL_LIMIT}&page=1`)));
      return s && body ? { spaceId: s.spaceId, rows: body.data } : null;
    });
    // The space screen lists the root pages; a page's screen does not.
    const roots = match?.[3]
      ? undefined
      : space.then(async (s) => {
          const body = s && (await get(pages(s, `limit=${ROOTS_LIMIT}`)));
          return s && body ? { spaceId: s.spaceId, result: body } : null;
        });
    return { workspaces, spaces, level, roots };
  };

  // Served to a browser with no session cookie (signed-out.html, made from index.html at build time): nothing to read
  // early, and a read would only answer 401 into the console.
  const signedOut = document.querySelector('meta[name="kb-session"][content="none"]');
  window.__kbEarlyReads = signedOut ? { workspaces: Promise.resolve(null) } : start();
})();
