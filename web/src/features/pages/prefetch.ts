import type { QueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import { lazyModule } from '../../ui/lazy-module';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { editorPageKey, loadPage } from './editor/page-doc';

/** The page screen's code (the editor is most of it) and its lazy component, which `routes.tsx` renders. */
export const pageScreen = lazyModule(() => import('./PageScreen'), createElement(ScreenLoader));
export const loadPageScreen = pageScreen.load;

/**
 * Runs `fn` when the browser is idle, `delay` ms from now at the earliest (a timer alone where there is no
 * `requestIdleCallback`); returns the cancel.
 */
function whenIdle(fn: () => unknown, delay: number): () => void {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(() => void fn(), { timeout: 2000 });
    else void fn();
  }, delay);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}

/**
 * Fetches the page screen's code at the browser's next idle moment, `delay` ms from now at the earliest, so the first
 * page opened waits only for its read. Asked for once the first screen has shown (the tree calls it when its rows are
 * there): started earlier, parsing the editor competed with the first screen on 2 cores. Returns the cancel.
 */
export function prefetchPageScreenWhenIdle(delay = 0): () => void {
  return whenIdle(loadPageScreen, delay);
}

/**
 * Gets a page ready to open before the click: the page screen's code and the page's read, under the key the page
 * screen reads it by (so it shows at once). Kept briefly: the read carries the ETag its saves are checked against, and a
 * stale one would only cost a conflict prompt, so an unopened prefetch is dropped after 15 s.
 */
export function prefetchPage(qc: QueryClient, pageId: string) {
  void loadPageScreen();
  void qc.prefetchQuery({ queryKey: editorPageKey(pageId), queryFn: () => loadPage(pageId), staleTime: 10_000, gcTime: 15_000 });
}
