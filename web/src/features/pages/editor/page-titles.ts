import { api, data } from '../../../api/client';

/** What a page link shows of a page now: its title and icon (`GET /v1/pages/titles`). */
export interface LivePageTitle {
  id: string;
  title: string;
  icon: string | null;
}

type Listener = (page: LivePageTitle) => void;

/** How long a title read is taken as current; a page opened later reads it again. */
const FRESH_MS = 30_000;
/** The server's limit per request. */
const BATCH = 100;
/** Mentions rendered together (a page opening) are read in one request. */
const GATHER_MS = 30;

const known = new Map<string, { page: LivePageTitle | null; at: number }>();
const listeners = new Map<string, Set<Listener>>();
const wanted = new Map<string, Set<string>>();
let scheduled = false;

const keyOf = (workspaceId: string, pageId: string) => `${workspaceId}\u0000${pageId}`;

async function readBatch(workspaceId: string, ids: string[]) {
  const at = Date.now();
  try {
    const pages = (await data(api.GET('/api/v1/pages/titles', { params: { query: { workspaceId, ids: ids.join(',') } } }))) as LivePageTitle[];
    const found = new Map(pages.map((p) => [p.id, p]));
    for (const id of ids) {
      const page = found.get(id) ?? null;
      const key = keyOf(workspaceId, id);
      known.set(key, { page, at });
      if (page) for (const listen of listeners.get(key) ?? []) listen(page);
    }
  } catch {
    // Offline or refused: the links keep the title they were made with, and the next page opened asks again.
  }
}

function flush() {
  scheduled = false;
  for (const [workspaceId, ids] of wanted) {
    const list = [...ids];
    for (let i = 0; i < list.length; i += BATCH) void readBatch(workspaceId, list.slice(i, i + BATCH));
  }
  wanted.clear();
}

/**
 * Tells `listen` the page's current title (at once when it was read lately, else after one batched read for every
 * link rendered meanwhile); pages the person cannot open, or gone to the trash, never answer. Returns the unsubscribe.
 */
export function watchPageTitle(workspaceId: string, pageId: string, listen: Listener): () => void {
  const key = keyOf(workspaceId, pageId);
  const set = listeners.get(key) ?? new Set<Listener>();
  listeners.set(key, set);
  set.add(listen);
  const seen = known.get(key);
  if (seen?.page) listen(seen.page);
  if (!seen || Date.now() - seen.at > FRESH_MS) {
    const ids = wanted.get(workspaceId) ?? new Set<string>();
    wanted.set(workspaceId, ids);
    ids.add(pageId);
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, GATHER_MS);
    }
  }
  return () => {
    set.delete(listen);
    if (!set.size) listeners.delete(key);
  };
}

/** A page's title changed here (renamed in the tree or its title field): links to it show the new one. */
export function notePageTitle(workspaceId: string, page: LivePageTitle) {
  const key = keyOf(workspaceId, page.id);
  known.set(key, { page, at: Date.now() });
  for (const listen of listeners.get(key) ?? []) listen(page);
}
