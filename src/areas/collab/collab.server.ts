import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import { type Connection, Hocuspocus, type WebSocketLike } from '@hocuspocus/server';
import crossws from 'crossws/adapters/node';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import * as Y from 'yjs';
import type { Actor, Ctx, LiveDocuments } from '../../context.js';
import { AppError, notFound } from '../../errors.js';
import type { HttpDeps } from '../../http/request-context.js';
import { newId } from '../../ids.js';
import { quietConnection } from '../../redis.js';
import { admitConnection, type CollabContext, credentialOf, mayWrite } from './collab.access.js';
import { sharedEditors } from './collab.editors.js';
import { SocketLimits } from './collab.limits.js';
import { connectionPresence, vetAwareness } from './collab.presence.js';
import { EditSession, loadLiveState, storeLiveDocument } from './collab.store.js';

/** Where clients connect (Hocuspocus protocol over WebSocket; the document name is the page id). */
export const COLLAB_PATH = '/api/collab';
const PAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The close code a connection gets when its access is gone or changed (the provider reconnects and is admitted anew). */
const ACCESS_CHANGED = { code: 4403, reason: 'access-changed' };
/**
 * Requests that may change who can open a page: members and roles, spaces and their permissions, groups, API keys, a
 * page's deletion or move, and a page's restriction (set, changed or removed).
 */
const ACCESS_WRITES = /^\/api\/(v1\/)?(workspaces\/[^/]+\/members|spaces|groups|api-keys|pages\/[^/?]+(\/restriction)?(\?|$))/;

/** An AppError as Hocuspocus refuses a connection: the reason the provider's `onAuthenticationFailed` receives is our error code. */
function refusal(err: unknown): Error & { reason: string } {
  const code = err instanceof AppError ? err.code : 'FORBIDDEN';
  return Object.assign(new Error(err instanceof Error ? err.message : code), { reason: code });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Open co-editing connections and loaded documents on this instance (the metrics read them at scrape time). */
    collabCounts?: () => { connections: number; documents: number };
  }
}

export interface CollabOptions {
  redis?: Redis;
  /** Prefix of the Redis keys and channels (tests share one Redis). */
  keyPrefix?: string;
}

/**
 * Co-editing at `/api/collab`: a Hocuspocus server on the service's own HTTP server. Access is the page's (editors
 * write, viewers read), checked at connect and again every COLLAB_ACCESS_RECHECK_MS; live pages are stored as their
 * page (collab.store.ts); writes from outside are merged into live documents (`mergeOutsideWrite`, on every instance
 * through Redis when REDIS_URL is set, where Hocuspocus's Redis extension also shares the documents themselves).
 */
export function registerCollab(app: FastifyInstance, deps: HttpDeps, options: CollabOptions = {}): LiveDocuments {
  const { config } = deps.env;
  const ctxFor = (actor: Actor | null): Ctx => ({ db: deps.database.db, actor, log: app.log, now: () => new Date(), env: deps.env });
  const system = ctxFor(null);
  const identifier = newId();
  const prefix = `${options.keyPrefix ?? ''}kb:collab`;
  const limits = new SocketLimits(config);
  // With Redis, who edited a page is noted there, so a version names the people on every instance.
  const editorsOf = options.redis
    ? sharedEditors({
        redis: options.redis,
        prefix,
        recordEveryMs: Math.min(500, config.COLLAB_SAVE_DEBOUNCE_MS / 2),
        ttlMs: Math.max(config.COLLAB_VERSION_QUIET_MS, config.COLLAB_SAVE_MAX_WAIT_MS * 2),
        log: app.log,
      })
    : undefined;
  const sessions = new Map<string, EditSession>();
  const sessionOf = (name: string) => {
    const session = sessions.get(name) ?? new EditSession(editorsOf?.(name));
    sessions.set(name, session);
    return session;
  };

  const hocuspocus = new Hocuspocus({
    name: identifier,
    quiet: true,
    debounce: config.COLLAB_SAVE_DEBOUNCE_MS,
    maxDebounce: config.COLLAB_SAVE_MAX_WAIT_MS,
    extensions: options.redis ? [new RedisExtension({ createClient: () => coEditingConnection(options.redis!, app), identifier, prefix })] : [],
    async onAuthenticate({ token, documentName, request, requestHeaders, connectionConfig }) {
      try {
        if (!PAGE_ID.test(documentName)) throw notFound('Page', documentName.slice(0, 64));
        const credential = credentialOf(token, requestHeaders, config.TRUST_PROXY);
        const admitted = await admitConnection(deps.authenticator, ctxFor, documentName, credential);
        connectionConfig.readOnly = !mayWrite(admitted.role);
        const context: CollabContext = { ...admitted, presence: await connectionPresence(ctxFor(admitted.actor), admitted.actor.userId) };
        limits.settled(request);
        return context;
      } catch (err) {
        throw refusal(err);
      }
    },
    // Presence (names, colours, carets) is the server's word: every awareness update from a client is vetted first.
    // One from no connection came through Redis from another instance, which vetted it.
    async beforeHandleAwareness({ states, connection, context, document }) {
      if (!connection) return;
      vetAwareness(states, (context as CollabContext | undefined)?.presence, document.getClients(connection), document.awareness.getStates());
    },
    async onLoadDocument({ documentName }) {
      const state = await loadLiveState(system, documentName);
      sessionOf(documentName).knownState = state;
      return state;
    },
    async onChange({ documentName, context }) {
      const actor = (context as Partial<CollabContext> | undefined)?.actor;
      if (actor) sessionOf(documentName).edited(actor.userId);
    },
    async onStoreDocument({ documentName, document }) {
      try {
        await storeLiveDocument(system, documentName, document, sessionOf(documentName));
      } catch (err) {
        app.log.error({ err, pageId: documentName }, 'could not store a live document');
        throw err;
      }
    },
    async afterUnloadDocument({ documentName }) {
      sessions.delete(documentName);
    },
  });

  const sockets = crossws({
    serverOptions: { maxPayload: config.MAX_PAGE_BYTES * 2 },
    hooks: {
      open(peer) {
        (peer as unknown as { collab: unknown }).collab = hocuspocus.handleConnection(peer.websocket as unknown as WebSocketLike, peer.request as Request);
        limits.watch(peer.request, peer.websocket as WebSocketLike);
      },
      message(peer, message) {
        (peer as unknown as { collab?: { handleMessage(m: Uint8Array): void } }).collab?.handleMessage(message.uint8Array());
      },
      close(peer, event) {
        limits.settled(peer.request);
        (peer as unknown as { collab?: { handleClose(e: unknown): void } }).collab?.handleClose({ code: event.code, reason: event.reason });
      },
      error(_peer, err) {
        app.log.warn({ err }, 'co-editing socket error');
      },
    },
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0].replace(/\/$/, '');
    if (path !== COLLAB_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (limits.admit(request, socket)) void sockets.handleUpgrade(request, socket, head);
  };
  app.server.on('upgrade', onUpgrade);

  const access = startAccessChecks(hocuspocus, deps, ctxFor, config.COLLAB_ACCESS_RECHECK_MS);
  // A write that can take access away (members, roles, spaces, groups, API keys, trashing a page) has this instance
  // check its open connections at once; other instances see it at their next interval.
  app.addHook('onResponse', async (request, reply) => {
    if (
      reply.statusCode < 400 &&
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      ACCESS_WRITES.test(request.url) &&
      hocuspocus.getDocumentsCount() > 0
    )
      access.soon();
  });
  const outside = startOutsideWrites(hocuspocus, options, prefix, app);
  app.decorate('collabCounts', () => ({ connections: hocuspocus.getConnectionsCount(), documents: hocuspocus.getDocumentsCount() }));

  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    access.stop();
    // Everything acknowledged is stored before the process goes: pending saves run now, then documents unload.
    hocuspocus.closeConnections();
    hocuspocus.flushPendingStores();
    const deadline = Date.now() + 10_000;
    while (hocuspocus.getDocumentsCount() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await outside.stop();
    await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
    // The sockets themselves (the HTTP server's close waits for every connection): 1012, the client reconnects.
    sockets.closeAll(1012, 'Service restarting', true);
  });
  return outside.liveDocuments;
}

/**
 * Every connection's access checked again on an interval, once per credential and page: gone (removed from the space
 * or workspace, a deleted API key, a trashed page) or changed (editor ↔ viewer) closes the connection, and the
 * provider's reconnect is admitted anew with the right scope, or refused.
 */
function startAccessChecks(hocuspocus: Hocuspocus, deps: HttpDeps, ctxFor: (actor: Actor) => Ctx, everyMs: number) {
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    try {
      const verdicts = new Map<string, Promise<CollabContext | null>>();
      for (const [pageId, document] of hocuspocus.documents) {
        for (const connection of document.getConnections() as Connection<CollabContext>[]) {
          const context = connection.context;
          if (!context?.credential) continue;
          const key = `${context.credential}\0${pageId}`;
          if (!verdicts.has(key))
            verdicts.set(
              key,
              admitConnection(deps.authenticator, ctxFor, pageId, context.credential).catch(() => null),
            );
          const now = await verdicts.get(key)!;
          if (!now || now.role !== context.role) {
            // The close message names the reason; closing the socket makes the provider reconnect and authenticate
            // again, so it comes back with its new scope, or is refused.
            connection.close(ACCESS_CHANGED);
            connection.webSocket.close(ACCESS_CHANGED.code, ACCESS_CHANGED.reason);
          }
        }
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  let soon: NodeJS.Timeout | null = null;
  return {
    stop: () => {
      clearInterval(timer);
      if (soon) clearTimeout(soon);
    },
    /** Checks again shortly (a burst of changes makes one check), not waiting for the interval. */
    soon: () => {
      soon ??= setTimeout(() => {
        soon = null;
        void check();
      }, 20);
    },
  };
}

/**
 * Writes from outside reach live documents: merged into this instance's copy, and with Redis, published so every
 * instance that has the page open merges it too (Yjs updates apply idempotently, so hearing one twice is harmless).
 * A new title (not in the Yjs document) goes the same way, told to each connection as a stateless message.
 */
function startOutsideWrites(hocuspocus: Hocuspocus, options: CollabOptions, prefix: string, app: FastifyInstance) {
  const mergeHere = async (pageId: string, update: Uint8Array) => {
    const document = hocuspocus.documents.get(pageId) ?? (await hocuspocus.loadingDocuments.get(pageId)?.catch(() => undefined));
    if (document) Y.applyUpdate(document, update, 'outside-write');
  };
  const titleHere = (pageId: string, payload: Uint8Array) => {
    const message = Buffer.from(payload).toString('utf8');
    for (const connection of hocuspocus.documents.get(pageId)?.getConnections() ?? []) connection.sendStateless(message);
  };
  const handlers: Record<string, (pageId: string, payload: Uint8Array) => void | Promise<void>> = { 'outside-writes': mergeHere, titles: titleHere };
  const subscriber = options.redis ? coEditingConnection(options.redis, app) : undefined;
  if (subscriber) {
    const channels = Object.keys(handlers).map((name) => `${prefix}:${name}`);
    void subscriber.subscribe(...channels).catch((err) => app.log.warn({ err }, 'co-editing: could not subscribe to outside writes'));
    subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      const handler = handlers[channel.toString().slice(prefix.length + 1)];
      const separator = message.indexOf(0);
      if (handler && separator > 0) void handler(message.subarray(0, separator).toString(), new Uint8Array(message.subarray(separator + 1)));
    });
  }
  /** Acts here, then tells the other instances (a message of `pageId`, a zero byte, then the payload). */
  const everywhere = async (name: string, pageId: string, payload: Uint8Array) => {
    await handlers[name](pageId, payload);
    if (options.redis) await options.redis.publish(`${prefix}:${name}`, Buffer.concat([Buffer.from(pageId), Buffer.from([0]), Buffer.from(payload)]));
  };
  const liveDocuments: LiveDocuments = {
    mergeOutsideWrite: (pageId, update) => everywhere('outside-writes', pageId, update),
    announceTitle: (pageId, title) => everywhere('titles', pageId, Buffer.from(JSON.stringify({ type: 'title', title }))),
  };
  return { liveDocuments, stop: async () => subscriber?.disconnect() };
}

const coEditingConnection = (redis: Redis, app: FastifyInstance) =>
  quietConnection(redis, app.log, 'co-editing: Redis is not answering; live documents are not shared until it is back');
