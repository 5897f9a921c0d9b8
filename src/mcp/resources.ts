import { getPage, listRecentPages } from '../areas/pages/pages.service.js';
import { listWorkspaces } from '../areas/workspaces/workspaces.service.js';
import type { Ctx } from '../context.js';
import { AppError } from '../errors.js';
import type { PageRef } from './tool.js';

/** Pages as MCP resources: `kb://pages/<pageId>`, read as Markdown. */
export const PAGE_URI_PREFIX = 'kb://pages/';
export const PAGE_URI_TEMPLATE = 'kb://pages/{pageId}';

export interface PageResource {
  uri: string;
  name: string;
  title: string;
  mimeType: 'text/markdown';
  description: string;
  annotations: { lastModified: string };
}

const MAX_WORKSPACES = 20;

/** Pages named by a tool's result as MCP `resource_link` content, once each, in the result's order. */
export function pageLinks(pages: PageRef[]) {
  const seen = new Set<string>();
  return pages.flatMap((p) => {
    if (seen.has(p.id)) return [];
    seen.add(p.id);
    return [{ type: 'resource_link' as const, uri: `${PAGE_URI_PREFIX}${encodeURIComponent(p.id)}`, name: p.title, mimeType: 'text/markdown' as const }];
  });
}

/**
 * The most recently edited pages the caller can read (the `x-workspace-id` workspace, else all of theirs), newest
 * first: one query per workspace.
 */
export async function recentPages(ctx: Ctx, limit = 50): Promise<PageResource[]> {
  const workspaceIds = ctx.workspaceHint ? [ctx.workspaceHint] : (await listWorkspaces(ctx)).slice(0, MAX_WORKSPACES).map((w) => w.id);
  const pages = (await Promise.all(workspaceIds.map((id) => listRecentPages(ctx, id, limit)))).flat();
  pages.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  return pages.slice(0, limit).map((p) => ({
    uri: `${PAGE_URI_PREFIX}${p.id}`,
    name: p.title,
    title: p.title,
    mimeType: 'text/markdown',
    description: `Page in space "${p.spaceName}", edited ${p.updatedAt}`,
    annotations: { lastModified: p.updatedAt },
  }));
}

/** The page named by a `kb://pages/<id>` URI, as Markdown under its title. */
export async function readPageResource(ctx: Ctx, uri: string) {
  const missing = () =>
    new AppError('NOT_FOUND', `No resource ${uri.slice(0, 300)}; pages are kb://pages/<pageId>`, { resource: 'Resource', uri: uri.slice(0, 300) });
  if (!uri.startsWith(PAGE_URI_PREFIX)) throw missing();
  let pageId: string;
  try {
    pageId = decodeURIComponent(uri.slice(PAGE_URI_PREFIX.length));
  } catch {
    throw missing();
  }
  if (!pageId || pageId.length > 200) throw missing();
  const page = await getPage(ctx, pageId, { format: 'markdown' });
  const body = page.markdown ?? '';
  return { uri, mimeType: 'text/markdown' as const, text: `# ${page.title}\n\n${body}`.trimEnd() + '\n' };
}
