import { api } from '../../../api/client';
import { ApiError, toApiError } from '../../../api/errors';
import type { PageWithContent } from '../pages.queries';

/** The page as the editor loads it: its content, the caller's role in its space, and the version tag for If-Match. */
export interface EditablePage extends PageWithContent {
  role?: 'viewer' | 'editor' | 'admin';
}

export interface LoadedPage {
  page: EditablePage;
  /** The `ETag` of this read: sent back as `If-Match` so a save never overwrites a change it has not seen. */
  etag: string | null;
}

/** What the editor saves: the title and the ProseMirror document. */
export interface PageDraft {
  title: string;
  content: Record<string, unknown>;
}

/** A 412 from the service: the page moved on since our tag. `etag` is the current one, when the service says it. */
export class VersionConflict extends Error {
  constructor(
    readonly currentEtag: string | null,
    readonly updatedAt: string | null,
  ) {
    super('This page was changed elsewhere');
    this.name = 'VersionConflict';
  }
}

/** Query key of the editor's own read (it carries the ETag, which the plain page query drops). Under `['pages']`. */
export const editorPageKey = (pageId: string) => ['pages', 'editor', pageId] as const;

async function unwrap<T>(promise: Promise<{ data?: unknown; error?: unknown; response: Response }>) {
  let result: Awaited<typeof promise>;
  try {
    result = await promise;
  } catch {
    throw toApiError(0, undefined);
  }
  if (result.response.status === 412) {
    const details = (result.error as { error?: { details?: { etag?: string; updatedAt?: string } } } | undefined)?.error?.details;
    throw new VersionConflict(details?.etag ?? null, details?.updatedAt ?? null);
  }
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.response.status, result.error);
  return { body: (result.data as { data: T }).data, etag: result.response.headers.get('ETag') };
}

/** Reads the page with its ETag and the caller's role. */
export async function loadPage(pageId: string): Promise<LoadedPage> {
  const { body, etag } = await unwrap<EditablePage>(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId }, query: {} } }));
  return { page: body, etag };
}

/**
 * Saves title and content under `If-Match: etag` (none when we hold no tag, e.g. the user chose to overwrite).
 * Returns the new ETag; throws VersionConflict on 412 and ApiError otherwise.
 */
export async function savePage(pageId: string, draft: PageDraft, etag: string | null): Promise<{ etag: string | null; updatedAt: string }> {
  const { body, etag: next } = await unwrap<{ updatedAt: string }>(
    api.PUT('/api/v1/pages/{pageId}', {
      params: { path: { pageId } },
      body: { title: draft.title, content: draft.content },
      headers: etag ? { 'If-Match': etag } : {},
    }),
  );
  return { etag: next, updatedAt: body.updatedAt };
}

/** Errors worth retrying by themselves: the network, rate limits and the service's 5xx. Others need the person. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.status === 0 || err.status === 429 || err.status >= 500;
}
