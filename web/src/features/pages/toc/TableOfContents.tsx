import './toc.css';
import type { Editor } from '@tiptap/react';
import { type ReactNode, useEffect, useState } from 'react';
import { headingsOf, sameHeadings, type TocHeading } from './toc.model';

/** Shown when the page has at least this many headings. */
export const TOC_MIN_HEADINGS = 3;
/** Edits are gathered for this long before the headings are read again (a 1 MB page: one walk per pause, not per key). */
const DEBOUNCE_MS = 300;

/** The editor's h1–h3 headings, read when it comes and again after each pause in editing (anyone's, co-edits too). */
export function useHeadings(editor: Editor | null): TocHeading[] {
  const [headings, setHeadings] = useState<TocHeading[]>([]);
  useEffect(() => {
    if (!editor) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      if (editor.isDestroyed) return;
      const next = headingsOf(editor.state.doc);
      setHeadings((prev) => (sameHeadings(prev, next) ? prev : next));
    };
    read();
    const onUpdate = () => {
      clearTimeout(timer);
      timer = setTimeout(read, DEBOUNCE_MS);
    };
    editor.on('update', onUpdate);
    return () => {
      clearTimeout(timer);
      editor.off('update', onUpdate);
    };
  }, [editor]);
  return editor ? headings : [];
}

/** Frames the heading is brought back to the top for at most, while blocks above it get their real size. */
const SETTLE_FRAMES = 60;

/**
 * Scrolls the heading into view, then again each frame until it stays put for two frames: blocks skipped by
 * `content-visibility` take their real size only once drawn, which moves the heading (more so on a slow device).
 * Stops early if the reader scrolls (wheel, touch or a key).
 */
export function scrollToHeading(editor: Editor, heading: TocHeading) {
  const at = () => editor.view.nodeDOM(heading.pos) as HTMLElement | null;
  at()?.scrollIntoView({ block: 'start' });
  let last = Number.NaN;
  let still = 0;
  let frames = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  const events = ['wheel', 'touchstart', 'keydown'] as const;
  for (const e of events) window.addEventListener(e, stop, { once: true, passive: true });
  const settle = () => {
    const el = at();
    if (stopped || !el || frames++ > SETTLE_FRAMES) {
      for (const e of events) window.removeEventListener(e, stop);
      return;
    }
    const top = el.getBoundingClientRect().top;
    still = Math.abs(top - last) < 1 ? still + 1 : 0;
    last = top;
    if (still >= 2) {
      for (const e of events) window.removeEventListener(e, stop);
      return;
    }
    el.scrollIntoView({ block: 'start' });
    requestAnimationFrame(settle);
  };
  requestAnimationFrame(settle);
}

/**
 * The page and, beside it on wide screens (≥ 1200 px) when it has three headings or more, its table of contents:
 * a list of its h1–h3 headings that scrolls to one on click and follows the edits.
 */
export function PageWithContents({ editor, children }: { editor: Editor | null; children: ReactNode }) {
  const headings = useHeadings(editor);
  const shown = editor && headings.length >= TOC_MIN_HEADINGS;
  return (
    <div className="kb-page-layout" data-with-toc={shown || undefined}>
      {children}
      {shown && (
        <nav className="kb-toc" aria-label="Contents">
          <p className="kb-toc-title" aria-hidden>
            Contents
          </p>
          <ul>
            {headings.map((h) => (
              <li key={`${h.pos}`} data-level={h.level}>
                <button type="button" title={h.text} onClick={() => scrollToHeading(editor, h)}>
                  {h.text}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}
