import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/index.js';
import { subscribed, subscribeToChannel } from '../../redis.js';
import { type PresentedNotification, presentNotification } from './notifications.present.js';
import { notificationsRepo, type Reader } from './notifications.repo.js';

/*
 * Live delivery (issue 16). Each app instance has one hub: the open streams of its users. A published message reaches
 * every hub through Redis pub/sub (channel `kb:notifications`) when the instance has Redis, else the hubs of this
 * process directly. Publishing is best effort: every stream also polls the database every NOTIFY_STREAM_POLL_MS, so a
 * notification made where no hub lives (a separate worker process without Redis) still arrives, a few seconds later.
 */

export const NOTIFICATIONS_CHANNEL = 'kb:notifications';
const PING_MS = 25_000;
/** How far back a poll looks (a dispatch's rows carry its transaction's start time, a little before they commit). */
const POLL_OVERLAP_MS = 30_000;

type LiveMessage = { type: 'notification'; userId: string; notification: PresentedNotification } | { type: 'count'; userId: string };

/** The hubs of this process: a publish from here (the dispatcher, a mark-read) reaches them. */
const hubs = new Set<NotificationHub>();

export class NotificationHub {
  private readonly local = new EventEmitter();
  private subscriber: Redis | null = null;
  private readonly streams = new Set<ServerResponse>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly log: FastifyBaseLogger,
  ) {
    this.local.setMaxListeners(0);
  }

  get sharesThroughRedis(): boolean {
    return !!this.redis;
  }

  start() {
    hubs.add(this);
    if (!this.redis) return;
    const subscriber = subscribeToChannel<LiveMessage>(
      this.redis,
      this.log,
      { channel: NOTIFICATIONS_CHANNEL, area: 'notifications', outage: 'live streams fall back to polling' },
      (m) => this.deliver(m),
    );
    this.subscriber = subscriber;
  }

  /** Resolves once the Redis subscription is in place (immediately without Redis). */
  async ready(): Promise<void> {
    return subscribed(this.subscriber);
  }

  deliver(message: LiveMessage) {
    this.local.emit(message.userId, message);
  }

  async publish(messages: LiveMessage[]) {
    if (this.redis) await this.redis.publish(NOTIFICATIONS_CHANNEL, JSON.stringify(messages));
    else for (const m of messages) this.deliver(m);
  }

  listen(userId: string, listener: (m: LiveMessage) => void): () => void {
    this.local.on(userId, listener);
    return () => this.local.off(userId, listener);
  }

  /** Streams open on this instance. */
  get openStreams(): number {
    return this.streams.size;
  }

  track(stream: ServerResponse): () => void {
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  /** Ends every open stream (the server is closing; EventSource reconnects elsewhere) and leaves Redis. */
  close() {
    hubs.delete(this);
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}

/**
 * Sends messages to every instance: once through Redis when a hub here has it (every hub with Redis hears it there,
 * this process's included), and directly to the hubs here without Redis.
 */
async function publishLive(messages: LiveMessage[]) {
  if (messages.length === 0 || hubs.size === 0) return;
  for (const hub of hubs) if (!hub.sharesThroughRedis) for (const m of messages) hub.deliver(m);
  const viaRedis = [...hubs].find((h) => h.sharesThroughRedis);
  try {
    await viaRedis?.publish(messages);
  } catch {
    // Best effort: the streams' poll delivers what this missed.
  }
}

/** Pushes these new notifications to their recipients' open streams (after the transaction that made them committed). */
export async function publishNotifications(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0 || hubs.size === 0) return;
  const rows = await notificationsRepo.byIds(db, ids);
  await publishLive(rows.map((row) => ({ type: 'notification', userId: row.userId, notification: presentNotification(row) })));
}

/** Tells the user's open streams their unread count may have changed (marked read elsewhere). */
export function publishCountChanged(userId: string): void {
  void publishLive([{ type: 'count', userId }]);
}

const frame = (event: string, data: unknown, id?: string) => `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Serves one stream on a hijacked response: headers, the current count, then `notification` events as they come (live,
 * or found by the poll), `count` events when the unread count changes, and a `: ping` comment every 25 s. Ends when the
 * client goes or the server closes.
 */
export function serveStream(options: {
  hub: NotificationHub;
  db: Db;
  reader: Reader;
  response: ServerResponse;
  headers: Record<string, string | number | string[] | undefined>;
  pollMs: number;
  log: FastifyBaseLogger;
  /** Whether the stream's credential still holds (a signed-out session, a revoked key end the stream at the next poll). */
  stillAuthorized: () => Promise<boolean>;
  /** The `Last-Event-ID` of a reconnecting EventSource: the unread notifications made after it are sent first. */
  lastEventId?: string;
}) {
  const { hub, db, reader, response, pollMs, log } = options;
  response.writeHead(200, {
    ...Object.fromEntries(Object.entries(options.headers).filter(([, v]) => v !== undefined)),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  response.write('retry: 3000\n\n');
  let open = true;
  let lastCount: number | null = null;
  const sent = new Map<string, number>();
  const connectedAt = Date.now();
  let pollFrom = connectedAt;

  const write = (chunk: string) => {
    if (open) response.write(chunk);
  };
  const send = (n: PresentedNotification) => {
    if (sent.has(n.id) || n.readAt) return;
    if (reader.workspaceId && n.workspaceId !== reader.workspaceId) return;
    if (reader.keyWorkspaceId && n.workspaceId !== reader.keyWorkspaceId) return;
    sent.set(n.id, Date.parse(n.createdAt));
    write(frame('notification', n, n.id));
  };

  let counting: Promise<void> | null = null;
  let countAgain = false;
  const refreshCount = () => {
    if (counting) {
      countAgain = true;
      return;
    }
    counting = (async () => {
      do {
        countAgain = false;
        const count = await notificationsRepo.unreadCount(db, reader);
        if (count !== lastCount) {
          lastCount = count;
          write(frame('count', { count }));
        }
      } while (countAgain && open);
    })()
      .catch((err) => log.warn({ err }, 'notifications stream: count failed'))
      .finally(() => {
        counting = null;
      });
  };

  const poll = async () => {
    const started = Date.now();
    try {
      if (!(await options.stillAuthorized())) {
        response.end();
        return;
      }
      // Not what was there before the stream opened (the list shows that), give or take a dispatch in flight.
      const since = Math.max(pollFrom - POLL_OVERLAP_MS, connectedAt - 2_000);
      const rows = await notificationsRepo.madeSince(db, reader, new Date(since), 100);
      for (const row of rows) send(presentNotification(row));
      pollFrom = started;
      for (const [id, at] of sent) if (at < started - 2 * POLL_OVERLAP_MS) sent.delete(id);
      refreshCount();
    } catch (err) {
      log.warn({ err }, 'notifications stream: poll failed');
    }
  };

  const stopListening = hub.listen(reader.userId, (m) => {
    if (m.type === 'notification') send(m.notification);
    refreshCount();
  });
  const untrack = hub.track(response);
  const pollTimer = setInterval(() => void poll(), pollMs);
  const pingTimer = setInterval(() => write(': ping\n\n'), PING_MS);
  pollTimer.unref();
  pingTimer.unref();
  // Anything made between connecting and listening is found by the first poll's overlap; the count starts now.
  refreshCount();
  const { lastEventId } = options;
  if (lastEventId)
    void notificationsRepo
      .madeAfter(db, reader, lastEventId, 100)
      .then((rows) => {
        for (const row of rows) send(presentNotification(row));
      })
      .catch((err) => log.warn({ err }, 'notifications stream: catching up failed'));

  response.on('close', () => {
    open = false;
    clearInterval(pollTimer);
    clearInterval(pingTimer);
    stopListening();
    untrack();
  });
}
