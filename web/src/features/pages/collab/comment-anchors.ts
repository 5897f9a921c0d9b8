import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { Editor } from '@tiptap/react';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import './comment-anchors.css';

/**
 * Comment threads on text, highlighted in the co-edited page. A thread's range is two Yjs relative positions (the API
 * keeps them, base64, with the quoted text): they resolve against the live document, so the highlight stays on its
 * text whatever anyone types around it, here, in another browser or over the API (merged live as the smallest change).
 * Ranges are resolved again when threads change or a change arrives from elsewhere; a local edit maps them.
 */

export interface CommentAnchor {
  start: string;
  end: string;
  quote: string;
}

/** A thread to highlight: its first comment's id and anchor (resolved threads are not passed: their highlight hides). */
export interface AnchoredThread {
  id: string;
  anchor: CommentAnchor;
}

interface AnchorsState {
  threads: AnchoredThread[];
  active: string | null;
  /** A highlight was clicked. */
  onOpen: ((id: string) => void) | null;
  decorations: DecorationSet;
}

const key = new PluginKey<AnchorsState>('kbCommentAnchors');

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

interface SyncState {
  doc: Y.Doc;
  type: Y.XmlFragment;
  binding: { mapping: Map<Y.AbstractType<unknown>, unknown> } | null;
}
const syncOf = (state: EditorState) => ySyncPluginKey.getState(state) as SyncState | undefined;

/** Where a thread's range is in the ProseMirror document now, or null when its text is gone or not here yet. */
function rangeOf(state: EditorState, anchor: CommentAnchor): { from: number; to: number } | null {
  const sync = syncOf(state);
  if (!sync?.binding) return null;
  try {
    const at = (value: string) =>
      relativePositionToAbsolutePosition(sync.doc, sync.type, Y.decodeRelativePosition(fromBase64(value)), sync.binding!.mapping as never);
    const from = at(anchor.start);
    const to = at(anchor.end);
    if (from === null || to === null || to <= from || to > state.doc.content.size) return null;
    return { from, to };
  } catch {
    return null; // an anchor from a document this one no longer shares
  }
}

function decorate(state: EditorState, threads: AnchoredThread[], active: string | null): DecorationSet {
  const decorations: Decoration[] = [];
  for (const thread of threads) {
    const range = rangeOf(state, thread.anchor);
    if (!range) continue;
    const className = thread.id === active ? 'kb-comment-anchor is-active' : 'kb-comment-anchor';
    decorations.push(Decoration.inline(range.from, range.to, { class: className, 'data-comment-id': thread.id }, { id: thread.id }));
  }
  return DecorationSet.create(state.doc, decorations);
}

export const CommentAnchors = Extension.create({
  name: 'commentAnchors',
  addProseMirrorPlugins() {
    return [
      new Plugin<AnchorsState>({
        key,
        state: {
          init: () => ({ threads: [], active: null, onOpen: null, decorations: DecorationSet.empty }),
          apply(tr, previous, _old, state) {
            const given = tr.getMeta(key) as Omit<AnchorsState, 'decorations'> | undefined;
            if (given) return { ...given, decorations: decorate(state, given.threads, given.active) };
            // A change from another client (or the first sync) moves the Yjs items: resolve again. One's own edit maps.
            if (syncOf(state) && tr.getMeta(ySyncPluginKey)?.isChangeOrigin)
              return { ...previous, decorations: decorate(state, previous.threads, previous.active) };
            return tr.docChanged ? { ...previous, decorations: previous.decorations.map(tr.mapping, tr.doc) } : previous;
          },
        },
        props: {
          decorations: (state) => key.getState(state)?.decorations,
          // A click in highlighted text opens its thread (the caret still goes where clicked).
          handleClick(view, pos) {
            const state = key.getState(view.state);
            const hit = state?.decorations.find(pos, pos)[0];
            if (hit && state?.onOpen) state.onOpen((hit.spec as { id: string }).id);
            return false;
          },
        },
      }),
    ];
  },
});

/** Shows these threads' highlights (and `active`'s stronger); `onOpen` hears of a click on one. */
export function showCommentAnchors(editor: Editor, threads: AnchoredThread[], active: string | null, onOpen: (id: string) => void): void {
  if (editor.isDestroyed) return;
  editor.view.dispatch(editor.state.tr.setMeta(key, { threads, active, onOpen }).setMeta('addToHistory', false));
}

/** The selected text as a new thread's anchor, or null when the editor is not bound to the live document yet. */
export function selectionAnchor(editor: Editor): CommentAnchor | null {
  const sync = syncOf(editor.state);
  const { from, to } = editor.state.selection;
  if (!sync?.binding || from === to) return null;
  const mapping = sync.binding.mapping as never;
  // y-prosemirror ties a position to the character before it; the start is tied to the one after, so text typed
  // just before the range stays out of it (and text typed just after its end stays out too).
  const encode = (pos: number, assoc: number) => {
    const relative = absolutePositionToRelativePosition(pos, sync.type, mapping);
    const absolute = Y.createAbsolutePositionFromRelativePosition(relative, sync.doc);
    const tied = absolute && absolute.type instanceof Y.XmlText ? Y.createRelativePositionFromTypeIndex(absolute.type, absolute.index, assoc) : relative;
    return toBase64(Y.encodeRelativePosition(tied));
  };
  return { start: encode(from, 0), end: encode(to, -1), quote: editor.state.doc.textBetween(from, to, ' ').slice(0, 500) };
}

/** Scrolls the page to a thread's text (and returns false when its text is gone). */
export function revealCommentAnchor(editor: Editor, anchor: CommentAnchor): boolean {
  const range = rangeOf(editor.state, anchor);
  if (!range) return false;
  const dom = editor.view.domAtPos(range.from).node;
  const element = dom instanceof Element ? dom : dom.parentElement;
  element?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  return true;
}
