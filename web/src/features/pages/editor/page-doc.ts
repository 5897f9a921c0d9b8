import { api } from '../../../api/client';
import { ApiError, toApiError } from '../../../api/errors';
import type { PageSummary, PageWithContent } from '../pages.queries';
import { notePageTitle } from './page-titles';

/** The page as the screen loads it: its title and the caller's role in its space (the content comes by co-editing). */
export interface EditablePage extends PageWithContent {
  role?: 'viewer' | 'editor' | 'admin';
}

/** Query key of the page screen's own read (kept apart from the plain page query). Under `['pages']`. */
export const editorPageKey = (pageId: string) => ['pages', 'editor', pageId] as const;

async function unwrap<T>(promise: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof promise>;
  try {
    result = await promise;
  } catch {
    throw toApiError(0, undefined);
  }
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.response.status, result.error);
  return (result.data as { data: T }).data;
}

/** Reads the page with the caller's role. */
export function loadPage(pageId: string): Promise<EditablePage> {
  return unwrap<EditablePage>(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId }, query: {} } }));
}

/**
 * Saves the title, alone: the content is the co-edited document's, which the server stores by itself. No If-Match:
 * the page's version moves with every stored keystroke of anyone, and for a title the last one written wins.
 */
export async function saveTitle(pageId: string, title: string): Promise<void> {
  const page = await unwrap<PageSummary>(api.PUT('/api/v1/pages/{pageId}', { params: { path: { pageId } }, body: { title } }));
  notePageTitle(page.workspaceId, page);
}

/** Errors worth retrying by themselves: the network, rate limits and the service's 5xx. Others need the person. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.status === 0 || err.status === 429 || err.status >= 500;
}
