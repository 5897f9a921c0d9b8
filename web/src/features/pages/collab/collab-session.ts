import { HocuspocusProvider } from '@hocuspocus/provider';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { type Presence, shownPresence } from '@editor/presence';
import { localName } from './device-copies';

/** The Tiptap `Collaboration` field that holds a page (the server's COLLAB_FIELD). */
export const COLLAB_FIELD = 'default';

/** What awareness says about a person on the page: their id, name and caret colour (the server sets it). */
export type Collaborator = Presence;

/** One opened page: its Yjs document, kept on this device and shared with the server. */
export interface CollabSession {
  pageId: string;
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** This device's copy (IndexedDB): what was typed offline survives a reload and merges on reconnect. */
  local: IndexeddbPersistence;
  destroy(): void;
}

/** `/api/collab` on this origin, over TLS when the page is. */
export function collabUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/collab`;
}

/**
 * Opens a page for co-editing: the document loads from this device's copy and from the server at once (Yjs merges
 * both, in any order). The browser's session cookie authenticates the socket (`token: 'cookie'`).
 */
export function openCollabSession(pageId: string, me: Collaborator): CollabSession {
  const doc = new Y.Doc();
  const local = new IndexeddbPersistence(localName(pageId), doc);
  const provider = new HocuspocusProvider({ url: collabUrl(), name: pageId, document: doc, token: 'cookie' });
  provider.setAwarenessField('user', me);
  return {
    pageId,
    doc,
    provider,
    local,
    destroy() {
      provider.destroy();
      void local.destroy();
      doc.destroy();
    },
  };
}

/** Whether the document holds a page yet (an empty fragment means neither this device nor the server has spoken). */
export const hasContent = (doc: Y.Doc) => doc.getXmlFragment(COLLAB_FIELD).length > 0;

/**
 * The other people on the page, once each however many tabs they have open. What awareness says is checked before it
 * is shown (the server sets it, but a page never trusts a peer): a name is only text, a colour only 6-digit hex.
 */
export function othersOn(session: CollabSession): Collaborator[] {
  const awareness = session.provider.awareness;
  if (!awareness) return [];
  const seen = new Map<string, Collaborator>();
  const me = (awareness.getLocalState()?.user as Collaborator | undefined)?.id;
  for (const [clientId, state] of awareness.getStates()) {
    const user = shownPresence(state?.user);
    if (clientId === session.doc.clientID || !user || user.id === me) continue;
    seen.set(user.id, user);
  }
  return [...seen.values()];
}

/** Why the server refused the connection, in words (its reason is our error code). */
export function refusalMessage(code: string): string {
  switch (code) {
    case 'DELETED':
      return 'This page was moved to the trash';
    case 'NOT_FOUND':
    case 'FORBIDDEN':
      return 'You no longer have access to this page';
    case 'UNAUTHORIZED':
    case 'TOKEN_EXPIRED':
      return 'Your session has ended: sign in again';
    default:
      return `The page cannot be edited now (${code})`;
  }
}
