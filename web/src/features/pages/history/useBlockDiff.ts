import { useEffect, useState } from 'react';
import type { BlockDiff, DocNode } from './block-diff';

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (answer: { result: BlockDiff; ms: number }) => void>();

/** One worker for the screen's diffs, made on first use. Null where the browser has no module workers. */
function diffWorker(): Worker | null {
  if (worker || typeof Worker === 'undefined') return worker;
  try {
    worker = new Worker(new URL('./diff.worker.ts', import.meta.url), { type: 'module', name: 'version-diff' });
    worker.onmessage = (event: MessageEvent<{ id: number; result: BlockDiff; ms: number }>) => {
      waiting.get(event.data.id)?.(event.data);
      waiting.delete(event.data.id);
    };
  } catch {
    worker = null;
  }
  return worker;
}

async function compute(before: DocNode | null, after: DocNode | null): Promise<{ result: BlockDiff; ms: number }> {
  const w = diffWorker();
  if (!w) {
    const { blockDiff } = await import('./block-diff');
    const started = performance.now();
    const result = blockDiff(before, after);
    return { result, ms: performance.now() - started };
  }
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, before, after });
  });
}

/**
 * The block diff of two documents, computed in a web worker. `null` while either document is loading or the diff is
 * being computed; `ms` is the worker's time (shown to nobody, read by the journey that measures a 1 MB page).
 */
export function useBlockDiff(before: DocNode | null | undefined, after: DocNode | null | undefined) {
  const [state, setState] = useState<{ for: [unknown, unknown]; diff: BlockDiff; ms: number } | null>(null);
  useEffect(() => {
    if (before === undefined || after === undefined) return;
    let live = true;
    void compute(before, after).then(({ result, ms }) => {
      if (live) setState({ for: [before, after], diff: result, ms });
    });
    return () => {
      live = false;
    };
  }, [before, after]);
  const current = state && state.for[0] === before && state.for[1] === after ? state : null;
  return { diff: current?.diff ?? null, ms: current?.ms ?? null };
}
