import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { PageChangeFeed } from '../areas/events/page-changes.js';
import { openPages } from '../areas/pages/page-access.sql.js';
import { memberScope } from '../areas/workspaces/member-scope.js';
import { memberRole } from '../areas/workspaces/workspaces.policy.js';
import { type Ctx, requireActor } from '../context.js';
import { notFound } from '../errors.js';
import { PAGE_URI_PREFIX } from './resources.js';

/** How many pages one `subscriptions/listen` may follow. */
export const MAX_FOLLOWED_PAGES = 100;

/**
 * `/api/mcp`'s change events (2026-07-28 `subscriptions/listen`): each page the feed says changed is a
 * `notifications/resources/updated` for `kb://pages/<id>`, which the SDK sends to the streams that follow that URI.
 * kb publishes through the feed (after the change commits), never on this bus directly.
 */
export function pageChangeBus(feed: PageChangeFeed): ServerEventBus {
  return {
    publish: () => {},
    subscribe: (listener) => feed.listen((pageId) => listener({ kind: 'resource_updated', uri: `${PAGE_URI_PREFIX}${pageId}` })),
  };
}

interface ListenRequest {
  id?: string | number;
  method?: string;
  params?: { notifications?: { resourceSubscriptions?: unknown } };
}

/**
 * A `subscriptions/listen` may follow only pages its caller can open: each URI must be `kb://pages/<id>` of such a
 * page, and at most MAX_FOLLOWED_PAGES of them (the SDK checks the rest of the request). The JSON-RPC error that
 * refuses the request (`-32602`, naming the first URI refused, never whether a page behind it exists), or undefined.
 */
export async function refusedListen(ctx: Ctx, body: unknown) {
  const request = body as ListenRequest | null;
  if (!request || typeof request !== 'object' || request.method !== 'subscriptions/listen') return undefined;
  const uris = request.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return undefined;
  const refuse = (message: string, data: Record<string, unknown>) => ({
    jsonrpc: '2.0' as const,
    id: request.id ?? null,
    error: { code: -32602, message, data },
  });
  if (uris.length > MAX_FOLLOWED_PAGES)
    return refuse(`A subscription follows at most ${MAX_FOLLOWED_PAGES} pages; open several`, { code: 'VALIDATION_ERROR', max: MAX_FOLLOWED_PAGES });
  const pageIds: string[] = [];
  for (const uri of uris) {
    const pageId = typeof uri === 'string' && uri.startsWith(PAGE_URI_PREFIX) ? uri.slice(PAGE_URI_PREFIX.length) : '';
    if (!pageId || pageId.length > 200)
      return refuse(`Only pages can be followed (kb://pages/<pageId>), not ${String(uri).slice(0, 200)}`, {
        code: 'VALIDATION_ERROR',
        uri: String(uri).slice(0, 200),
      });
    pageIds.push(pageId);
  }
  const open = await openToCaller(ctx, pageIds);
  const refused = uris.find((_, i) => !open.has(pageIds[i]));
  if (refused === undefined) return undefined;
  const e = notFound('Page', pageIds[uris.indexOf(refused)]);
  return refuse(`${e.code}: ${e.message}`, { code: e.code, uri: refused });
}

/** Which of these pages the caller can open: one query for their workspaces, then one check per workspace (usually one). */
async function openToCaller(ctx: Ctx, pageIds: string[]): Promise<Set<string>> {
  const open = new Set<string>();
  if (!pageIds.length) return open;
  const actor = requireActor(ctx);
  const rows = await ctx.db.selectFrom('pages').select(['id', 'workspaceId']).where('id', 'in', pageIds).execute();
  for (const workspaceId of new Set(rows.map((r) => r.workspaceId))) {
    // Not a member, or a key or token limited to another workspace: none of its pages.
    const { role } = await memberRole(ctx.db, workspaceId, memberScope(actor));
    if (!role) continue;
    const ids = rows.filter((r) => r.workspaceId === workspaceId).map((r) => r.id);
    for (const r of await openPages(ctx.db, workspaceId, actor.userId).where('p.id', 'in', ids).select('p.id').execute()) open.add(r.id);
  }
  return open;
}
