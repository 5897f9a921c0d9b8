import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import type { TestApp } from '../helpers/app.js';
import { doc } from '../pages/helpers.js';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import WebSocket from 'ws';
import * as Y from 'yjs';

/** A co-editing client as a third party would write one: @hocuspocus/provider over a real socket, a Yjs document. */
export interface CollabClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** The page's text as this client sees it (paragraphs joined by newlines). */
  text(): string;
  /** Inserts text at the end of paragraph `index` (made when missing), as typing there would. */
  type(text: string, index?: number): void;
  /** Resolves with the reason when the server refuses the connection. */
  refused: Promise<string>;
  authenticated: Promise<'read-write' | 'readonly'>;
  synced: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  destroy(): void;
}

export function collabUrl(baseUrl: string) {
  return `${baseUrl.replace(/^http/, 'ws')}/api/collab`;
}

export function connect(baseUrl: string, pageId: string, token: string, headers?: Record<string, string>): CollabClient {
  const doc = new Y.Doc();
  let onRefused!: (reason: string) => void;
  let onAuthenticated!: (scope: 'read-write' | 'readonly') => void;
  let onSynced!: () => void;
  let onClosed!: (e: { code: number; reason: string }) => void;
  const refused = new Promise<string>((r) => (onRefused = r));
  const authenticated = new Promise<'read-write' | 'readonly'>((r) => (onAuthenticated = r));
  const synced = new Promise<void>((r) => (onSynced = r));
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClosed = r));
  class WithHeaders extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  const socket = new HocuspocusProviderWebsocket({
    url: collabUrl(baseUrl),
    WebSocketPolyfill: headers ? WithHeaders : WebSocket,
    maxAttempts: 50,
    delay: 100,
    minDelay: 100,
    maxDelay: 500,
  });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: pageId,
    document: doc,
    token,
    onAuthenticationFailed: ({ reason }) => onRefused(reason),
    onAuthenticated: ({ scope }) => onAuthenticated(scope as 'read-write' | 'readonly'),
    onSynced: () => onSynced(),
    onClose: ({ event }) => onClosed({ code: event.code, reason: event.reason }),
  });
  provider.attach();
  const fragment = doc.getXmlFragment('default');
  return {
    doc,
    provider,
    refused,
    authenticated,
    synced,
    closed,
    text: () => paragraphsOf(yXmlFragmentToProsemirrorJSON(fragment)),
    type(text, index = 0) {
      doc.transact(() => {
        while (fragment.length <= index) fragment.push([new Y.XmlElement('paragraph')]);
        const paragraph = fragment.get(index) as Y.XmlElement;
        let textNode = paragraph.get(0) as Y.XmlText | undefined;
        if (!(textNode instanceof Y.XmlText)) {
          textNode = new Y.XmlText();
          paragraph.insert(0, [textNode]);
        }
        textNode.insert(textNode.length, text);
      });
    },
    destroy() {
      provider.destroy();
      socket.destroy();
    },
  };
}

/** Plain text of ProseMirror JSON, one line per top-level block. */
export function paragraphsOf(json: { content?: { content?: { text?: string }[] }[] }): string {
  return (json.content ?? []).map((block) => (block.content ?? []).map((n) => n.text ?? '').join('')).join('\n');
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`, naming what it waited for). */
export async function eventually<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000, lastSeen?: () => unknown): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
      if (lastSeen) last = lastSeen();
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Replaces a page's content over REST (one paragraph per string) and returns the status. */
export async function putParagraphs(request: TestApp['request'], pageId: string, token: string, ...paragraphs: string[]): Promise<number> {
  const res = await request({ method: 'PUT', url: `/api/v1/pages/${pageId}`, token, body: { content: doc(...paragraphs) } });
  return res.status;
}
