import { useCallback, useEffect, useRef, useState } from 'react';
import { isTransient, type PageDraft, savePage, VersionConflict } from './page-doc';

/**
 * What the person sees about their edits: `saving` covers the debounce too (a change not yet on the server),
 * `retrying` a network or 5xx failure being retried, `conflict` a 412, `failed` an error retrying cannot fix.
 */
export type SaveState = 'saved' | 'saving' | 'retrying' | 'conflict' | 'failed';

export interface Autosave {
  state: SaveState;
  /** The last error a save met (for `retrying` and `failed`). */
  error: unknown;
  /** Set on a 412: the version the server holds now. */
  conflict: VersionConflict | null;
  /** Call on every change; the draft is read (`read()`) only when the save runs, not per keystroke. */
  changed(): void;
  /**
   * Saves now, skipping the debounce (a "Keep my version" after a conflict passes the server's current tag).
   * Resolves true when the text reached the server.
   */
  saveNow(etag?: string | null): Promise<boolean>;
  /** The tag the next save sends as If-Match. */
  etag(): string | null;
  /** Resets after the page was reloaded from the server (e.g. "Use theirs"). */
  reset(etag: string | null): void;
}

const DEBOUNCE_MS = 800;
const MAX_BACKOFF_MS = 30_000;

/**
 * The one save path of the page editor: debounced PUTs with If-Match, retries with backoff, and a warning before the
 * tab closes with unsaved text. Co-editing will replace this hook; nothing else in the screen knows how saving works.
 */
export function useAutosave(opts: {
  pageId: string;
  initialEtag: string | null;
  enabled: boolean;
  read: () => PageDraft;
  onSaved?: (draft: PageDraft) => void;
}): Autosave {
  const [state, setStateValue] = useState<SaveState>('saved');
  const stateRef = useRef<SaveState>('saved');
  const setState = useCallback((next: SaveState) => {
    stateRef.current = next;
    setStateValue(next);
  }, []);
  const [error, setError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  const etagRef = useRef(opts.initialEtag);
  const changes = useRef(0); // bumped per change; a save is clean only if no change came while it ran
  const savedAt = useRef(0);
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const attempts = useRef(0);
  const blocked = useRef(false); // a conflict or a hard failure: no autosave until the person acts
  const ok = useRef(true); // did the last save attempt reach the server?
  const latest = useRef(opts);
  latest.current = opts;

  const clearTimer = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const run = useCallback(async (): Promise<void> => {
    clearTimer();
    if (inFlight.current) {
      await inFlight.current;
      if (changes.current === savedAt.current || blocked.current) return;
    }
    const upTo = changes.current;
    const draft = latest.current.read();
    setState('saving');
    const attempt = (async () => {
      try {
        const { etag } = await savePage(latest.current.pageId, draft, etagRef.current);
        etagRef.current = etag;
        ok.current = true;
        savedAt.current = upTo;
        attempts.current = 0;
        setError(null);
        latest.current.onSaved?.(draft);
        if (changes.current === upTo) setState('saved');
        else timer.current = setTimeout(() => void run(), DEBOUNCE_MS);
      } catch (err) {
        ok.current = false;
        setError(err);
        if (err instanceof VersionConflict) {
          blocked.current = true;
          setConflict(err);
          setState('conflict');
        } else if (isTransient(err)) {
          attempts.current += 1;
          setState('retrying');
          const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempts.current - 1));
          timer.current = setTimeout(() => void run(), wait);
        } else {
          blocked.current = true;
          setState('failed');
        }
      }
    })();
    inFlight.current = attempt;
    await attempt;
    inFlight.current = null;
  }, [clearTimer, setState]);

  const changed = useCallback(() => {
    if (!latest.current.enabled) return;
    changes.current += 1;
    if (blocked.current) return;
    // Per keystroke: only a real change of state re-renders the screen (typing on a big page stays cheap).
    if (stateRef.current !== 'retrying' && stateRef.current !== 'saving') setState('saving');
    if (attempts.current > 0) return; // a retry is already scheduled; it will take the newest text
    clearTimer();
    timer.current = setTimeout(() => void run(), DEBOUNCE_MS);
  }, [run, clearTimer, setState]);

  const saveNow = useCallback(
    async (etag?: string | null) => {
      if (etag !== undefined) etagRef.current = etag;
      blocked.current = false;
      attempts.current = 0;
      setConflict(null);
      if (changes.current === savedAt.current) changes.current += 1; // force a write even if nothing changed since
      await run();
      return ok.current;
    },
    [run],
  );

  const reset = useCallback((etag: string | null) => {
    clearTimer();
    etagRef.current = etag;
    savedAt.current = changes.current;
    blocked.current = false;
    attempts.current = 0;
    setConflict(null);
    setError(null);
    setState('saved');
  }, [clearTimer, setState]);

  // Never lose text silently: the browser asks before closing a tab with unsaved edits.
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
      clearTimer();
      if (changes.current === savedAt.current || blocked.current || !latest.current.enabled) return;
      try {
        void savePage(latest.current.pageId, latest.current.read(), etagRef.current).catch(() => {});
      } catch {
        // The editor is already gone: nothing left to read. The beforeunload warning covered closing the tab.
      }
    },
    [clearTimer],
  );

  return { state, error, conflict, changed, saveNow, etag: () => etagRef.current, reset };
}
