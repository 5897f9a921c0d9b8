import { WebSocketStatus } from '@hocuspocus/provider';
import { useEffect, useState } from 'react';
import { type CollabSession, type Collaborator, hasContent, openCollabSession, othersOn } from './collab-session';
import { colourOf } from '@editor/presence';

/**
 * Where the person's copy of the page stands: `connecting` before the first handshake, `online` connected with
 * changes the server has not acknowledged yet, `synced` connected with nothing pending, `offline` cut off (edits
 * are kept on this device and sent on reconnect).
 */
export type CollabStatus = 'connecting' | 'online' | 'offline' | 'synced';

export interface CollabState {
  /** Null until opened (and for one render after the page changes). */
  session: CollabSession | null;
  status: CollabStatus;
  /** Changes sent that the server has not acknowledged yet. */
  unsynced: number;
  /** How the server admitted the connection: read-only (a viewer) or not; null before it has said. */
  readOnly: boolean | null;
  /** The document can be shown: this device's copy held the page, or the server's arrived. */
  ready: boolean;
  /** Why the server refused the connection (its error code), when it did. */
  refused: string | null;
  /** The other people on the page now. */
  others: Collaborator[];
  /** The page's title as the server last announced it while the page was open (a rename anywhere), else null; a new object each time. */
  liveTitle: { title: string } | null;
}

interface Signals {
  socket: WebSocketStatus;
  handshake: boolean;
  unsynced: number;
  /** A connection was lost or failed since the page opened: a reconnect attempt then reads as offline, not "connecting". */
  troubled: boolean;
  browserOnline: boolean;
}

function statusOf(s: Signals): CollabStatus {
  if (!s.browserOnline) return 'offline';
  if (s.socket === WebSocketStatus.Connected) {
    if (!s.handshake) return 'connecting';
    return s.unsynced > 0 ? 'online' : 'synced';
  }
  return s.troubled || s.socket === WebSocketStatus.Disconnected ? 'offline' : 'connecting';
}

/** How long "Saving…" stays after the last acknowledgement, so a typing burst reads as one save. */
const SETTLE_MS = 400;

const INITIAL: Omit<CollabState, 'session'> = { status: 'connecting', unsynced: 0, readOnly: null, ready: false, refused: null, others: [], liveTitle: null };

/**
 * Opens a page for co-editing (Yjs document, this device's IndexedDB copy, the `/api/collab` socket) for as long as
 * the screen shows it, and reports its state; everything is closed when the page changes or the screen goes.
 */
export function useCollabSession(pageId: string, user: { id: string; name: string }): CollabState {
  const [session, setSession] = useState<CollabSession | null>(null);
  const [state, setState] = useState(INITIAL);

  useEffect(() => {
    const opened = openCollabSession(pageId, { id: user.id, name: user.name, color: colourOf(user.id) });
    const { provider, local, doc } = opened;
    const signals: Signals = { socket: WebSocketStatus.Connecting, handshake: false, unsynced: 0, troubled: false, browserOnline: navigator.onLine };
    const update = (patch: Partial<Omit<CollabState, 'session'>> = {}) =>
      setState((prev) => {
        const next = { ...prev, ...patch, status: statusOf(signals), unsynced: signals.unsynced };
        return Object.keys(next).every((k) => next[k as keyof typeof next] === prev[k as keyof typeof prev]) ? prev : next;
      });

    provider.on('status', ({ status }: { status: WebSocketStatus }) => {
      if (status === WebSocketStatus.Disconnected) {
        signals.troubled = true;
        signals.handshake = false;
      }
      signals.socket = status;
      update();
    });
    provider.on('synced', () => {
      signals.handshake = true;
      update({ ready: true });
    });
    // Every keystroke is sent and acknowledged within milliseconds: "Saved" waits for a short lull, so that typing
    // re-renders the screen at the start and the end of a burst, not twice a key.
    let settle: ReturnType<typeof setTimeout> | undefined;
    provider.on('unsyncedChanges', ({ number }: { number: number }) => {
      signals.unsynced = number;
      clearTimeout(settle);
      if (number === 0) settle = setTimeout(() => update(), SETTLE_MS);
      else update();
    });
    provider.on('authenticated', ({ scope }: { scope: string }) => update({ readOnly: scope !== 'read-write', refused: null }));
    provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
      // Refused (no access, or signed out): asking again every few seconds will not change that.
      provider.disconnect();
      update({ refused: reason || 'FORBIDDEN' });
    });
    // Awareness changes with every caret move of anyone: re-render only when who is here changes.
    let here = '';
    provider.on('awarenessChange', () => {
      const others = othersOn(opened);
      const key = others.map((o) => `${o.id}\0${o.name}\0${o.color}`).join('\n');
      if (key === here) return;
      here = key;
      update({ others });
    });
    // The title is not in the Yjs document: the server tells a rename (REST, MCP, sync, a restore) as a stateless message.
    provider.on('stateless', ({ payload }: { payload: string }) => {
      try {
        const message = JSON.parse(payload) as { type?: string; title?: unknown };
        if (message.type === 'title' && typeof message.title === 'string') update({ liveTitle: { title: message.title } });
      } catch {
        // not ours
      }
    });
    void local.whenSynced.then(() => {
      if (hasContent(doc)) update({ ready: true });
    });

    // The browser knows first when the network goes: say so at once and stop retrying until it is back.
    const offline = () => {
      signals.browserOnline = false;
      signals.troubled = true;
      provider.disconnect();
      update();
    };
    const online = () => {
      signals.browserOnline = true;
      update();
      void provider.connect();
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);

    setSession(opened);
    setState({ ...INITIAL, status: statusOf(signals) });
    return () => {
      clearTimeout(settle);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      setSession(null);
      opened.destroy();
    };
  }, [pageId, user.id, user.name]);

  return { session: session?.pageId === pageId ? session : null, ...state };
}
