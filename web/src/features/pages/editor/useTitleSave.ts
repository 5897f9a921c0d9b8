import { useCallback, useEffect, useRef, useState } from 'react';
import { isTransient, saveTitle } from './page-doc';

/**
 * Where the title stands: `saving` covers the debounce too, `retrying` a network or 5xx failure being retried,
 * `failed` an error retrying cannot fix. (The content is saved by co-editing; see collab/.)
 */
export type TitleSaveState = 'saved' | 'saving' | 'retrying' | 'failed';

export interface TitleSave {
  state: TitleSaveState;
  /** The last error a save met (for `retrying` and `failed`). */
  error: unknown;
  /** Call on every change of the title. */
  changed(title: string): void;
  /** Saves now (the "Try again" after a failure). */
  saveNow(): Promise<void>;
}

const DEBOUNCE_MS = 800;
const MAX_BACKOFF_MS = 30_000;

/** The title's save path: debounced PUTs of the title alone, retried with backoff, and a warning before a tab closes unsaved. */
export function useTitleSave(opts: { pageId: string; initial: string; onSaved?: (title: string) => void }): TitleSave {
  const [state, setStateValue] = useState<TitleSaveState>('saved');
  const stateRef = useRef<TitleSaveState>('saved');
  const setState = useCallback((next: TitleSaveState) => {
    if (stateRef.current === next) return;
    stateRef.current = next;
    setStateValue(next);
  }, []);
  const [error, setError] = useState<unknown>(null);
  const wanted = useRef(opts.initial);
  const saved = useRef(opts.initial);
  const running = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const attempts = useRef(0);
  const latest = useRef(opts);
  latest.current = opts;

  const schedule = useCallback((run: () => void, ms: number) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(run, ms);
  }, []);

  const run = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (running.current) return; // the save under way looks again when it ends
    running.current = true;
    const title = wanted.current;
    try {
      await saveTitle(latest.current.pageId, title);
      saved.current = title;
      attempts.current = 0;
      setError(null);
      latest.current.onSaved?.(title);
    } catch (err) {
      setError(err);
      if (!isTransient(err)) {
        setState('failed');
        return;
      }
      attempts.current += 1;
      setState('retrying');
      schedule(() => void run(), Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempts.current - 1)));
      return;
    } finally {
      running.current = false;
    }
    if (wanted.current !== saved.current) schedule(() => void run(), DEBOUNCE_MS);
    else setState('saved');
  }, [schedule, setState]);

  const changed = useCallback(
    (title: string) => {
      wanted.current = title;
      if (stateRef.current === 'saved' || stateRef.current === 'failed') setState('saving');
      if (attempts.current === 0) schedule(() => void run(), DEBOUNCE_MS); // else a retry is due and takes the newest title
    },
    [run, schedule, setState],
  );

  const saveNow = useCallback(async () => {
    attempts.current = 0;
    setState('saving');
    await run();
  }, [run, setState]);

  // Never lose a title silently: the browser asks before closing a tab with one unsaved.
  const unsaved = state !== 'saved';
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  // Leaving the page inside the app: send what is pending instead of dropping it.
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      if (wanted.current !== saved.current) void saveTitle(latest.current.pageId, wanted.current).catch(() => {});
    },
    [],
  );

  return { state, error, changed, saveNow };
}
