import type { QueryClient } from '@tanstack/react-query';
import { editorPageKey, loadPage } from './editor/page-doc';

/** The page screen's code (the editor is most of it); `routes.tsx` loads its lazy screen through this too. */
export const loadPageScreen = () => import('./PageScreen');

/**
 * Gets a page ready to open before the click: the page screen's code and the page's read, under the key the page
 * screen reads it by (so it shows at once). Kept briefly: the read carries the ETag its saves are checked against, and a
 * stale one would only cost a conflict prompt, so an unopened prefetch is dropped after 15 s.
 */
export function prefetchPage(qc: QueryClient, pageId: string) {
  void loadPageScreen();
  void qc.prefetchQuery({ queryKey: editorPageKey(pageId), queryFn: () => loadPage(pageId), staleTime: 10_000, gcTime: 15_000 });
}
