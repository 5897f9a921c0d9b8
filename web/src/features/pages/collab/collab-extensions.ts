import { type AnyExtension, Extension } from '@tiptap/core';
import { Collaboration } from '@tiptap/extension-collaboration';
import { yCursorPlugin } from '@tiptap/y-tiptap';
import type { Awareness } from 'y-protocols/awareness';
import { colourOf, shownPresence } from '@editor/presence';
import { COLLAB_FIELD, type CollabSession, type Collaborator } from './collab-session';
import { CommentAnchors } from './comment-anchors';
import './collab.css';

/** What a peer's awareness says about them, safe to show (a colour that is hex, never a string put into a style). */
const safe = (user: unknown): Collaborator => shownPresence(user) ?? { id: '', name: 'Someone', color: colourOf('') };

/** Another person's caret: a thin bar in their colour with their name above it (the avatars announce who is here). */
function caretOf(claimed: unknown): HTMLElement {
  const user = safe(claimed);
  const caret = document.createElement('span');
  caret.className = 'kb-caret';
  caret.style.borderColor = user.color;
  caret.setAttribute('aria-hidden', 'true');
  const label = document.createElement('span');
  label.className = 'kb-caret-label';
  label.style.backgroundColor = user.color;
  label.textContent = user.name;
  caret.append(label);
  return caret;
}

/** Their selection, tinted in their colour (`33` ≈ 20 % alpha keeps the text readable); the colour is hex, checked. */
const selectionOf = (claimed: unknown) => ({ class: 'kb-remote-selection', style: `background-color: ${safe(claimed).color}33` });

/**
 * The others' carets and selections, read from awareness. Uses @tiptap/y-tiptap's cursor plugin, which finds the
 * document through the sync plugin that `Collaboration` installs from the same package.
 */
const CollabCarets = Extension.create<{ awareness: Awareness | null }>({
  name: 'collabCarets',
  addOptions: () => ({ awareness: null }),
  addProseMirrorPlugins() {
    const { awareness } = this.options;
    if (!awareness) return [];
    // Not one's own, from this tab or an earlier one (a reload leaves the old connection's caret until it times out).
    const othersOnly = (mine: number, theirs: number, state: { user?: Partial<Collaborator> } | null) =>
      mine !== theirs && state?.user?.id !== (awareness.getLocalState()?.user as Collaborator | undefined)?.id;
    return [yCursorPlugin(awareness, { awarenessStateFilter: othersOnly, cursorBuilder: caretOf, selectionBuilder: selectionOf })];
  },
});

/** The editor bound to a co-editing session: its content is the Yjs document (with its own undo), plus carets and comment highlights. */
export function collabExtensions(session: CollabSession): AnyExtension[] {
  return [
    Collaboration.configure({ document: session.doc, field: COLLAB_FIELD }),
    CollabCarets.configure({ awareness: session.provider.awareness }),
    CommentAnchors,
  ];
}
