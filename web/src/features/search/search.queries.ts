import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { ItemOf } from '../../api/types';
import { type SpaceSummary, spaceKeys } from '../spaces/spaces.queries';
import { paths } from '../workspaces/workspace-context';

export type ResultType = 'page' | 'task';

/** A search result (`snippet` is escaped HTML with matches in `<mark>…</mark>`, see `Snippet`) and a suggestion. */
export type SearchResult = ItemOf<'/api/v1/search'>;
export type Suggestion = ItemOf<'/api/v1/search/suggest'>;

export interface SearchParams {
  query: string;
  spaceId?: string;
  type?: ResultType;
  limit: number;
}

export const searchKeys = {
  suggest: (workspaceId: string, query: string) => ['search', 'suggest', workspaceId, query] as const,
  results: (workspaceId: string, params: SearchParams) => ['search', 'results', workspaceId, params] as const,
};

/**
 * Suggestions for what is typed. The caller debounces the text; each text is its own query key, so a slow answer
 * for an older text can never replace the answer for the newer one (and its request is aborted when it goes stale).
 */
export function useSuggestions(workspaceId: string, query: string) {
  const text = query.trim();
  return useQuery({
    queryKey: searchKeys.suggest(workspaceId, text),
    queryFn: async ({ signal }) =>
      (await data(api.GET('/api/v1/search/suggest', { params: { query: { workspaceId, query: text, limit: 8 } }, signal }))) as Suggestion[],
    enabled: text.length >= 2,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

/** Ranked results for the full search screen; the previous answer stays on screen while a new one loads. */
export function useSearchResults(workspaceId: string, params: SearchParams) {
  const text = params.query.trim();
  return useQuery({
    queryKey: searchKeys.results(workspaceId, params),
    queryFn: async ({ signal }) =>
      (await data(
        api.GET('/api/v1/search', {
          params: { query: { workspaceId, query: text, spaceId: params.spaceId, types: params.type, limit: params.limit } },
          signal,
        }),
      )) as SearchResult[],
    enabled: text.length > 0,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

interface PageLocation {
  id: string;
  slug: string;
  spaceId: string;
}

/**
 * The URL of a page known only by id (suggestions carry no space): reads the page for its space and slug, and the
 * space list (usually cached by the sidebar) for the space's slug.
 */
export async function pagePathById(client: QueryClient, workspace: { id: string; hostname: string }, pageId: string): Promise<string> {
  const page = (await data(api.GET('/api/v1/pages/{pageId}', { params: { path: { pageId }, query: { workspaceId: workspace.id } } }))) as PageLocation;
  const spaces = await client.fetchQuery({
    queryKey: spaceKeys.all(workspace.id),
    queryFn: async () => (await data(api.GET('/api/v1/spaces', { params: { query: { workspaceId: workspace.id } } }))) as SpaceSummary[],
    staleTime: 30_000,
  });
  const space = spaces.find((s) => s.id === page.spaceId);
  if (!space) throw new Error('The page’s space is not visible to you.');
  return paths.page(workspace.hostname, space.slug, page);
}

/** A task's own screen (owned by the tasks feature). */
export function taskPath(hostname: string, taskId: string) {
  return `${paths.tasks(hostname)}/${encodeURIComponent(taskId)}`;
}

/** The typed text with its last word replaced by a completed keyword, ready for more typing. */
export function completeLastWord(query: string, keyword: string): string {
  const match = /[\p{L}\p{N}]+$/u.exec(query.trimEnd());
  const head = match ? query.trimEnd().slice(0, match.index) : `${query.trimEnd()} `;
  return `${head}${keyword} `;
}
