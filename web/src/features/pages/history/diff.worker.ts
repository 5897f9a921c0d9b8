/// <reference lib="webworker" />
import { blockDiff, type DocNode } from './block-diff';

/** Computes block diffs off the main thread: a 1 MB page's diff never holds typing, scrolling or painting. */
self.onmessage = (event: MessageEvent<{ id: number; before: DocNode | null; after: DocNode | null }>) => {
  const { id, before, after } = event.data;
  const started = performance.now();
  const result = blockDiff(before, after);
  self.postMessage({ id, result, ms: performance.now() - started });
};
