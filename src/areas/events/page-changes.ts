import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/index.js';
import { subscribed, subscribeToChannel } from '../../redis.js';
import type { EventType } from './events.record.js';

/*
 * "This page changed", live, for whoever follows pages (MCP `subscriptions/listen`). Fed by the event dispatcher after
 * each batch commits: a page's events (a new version, a move, a rename, the trash) name it here. One feed per app
 * instance; a change reaches every instance's feed through Redis (channel `kb:page-changes`) when the instance has
 * Redis, else the feeds of this process directly. Best effort, like every live push: a change the dispatcher makes
 * where no feed lives and no Redis carries it is not announced (its page reads as changed all the same).
 */

export const PAGE_CHANGES_CHANNEL = 'kb:page-changes';

/** The events that change what a page reads as (its content, title, place or state). */
const PAGE_CHANGING: readonly EventType[] = ['page.created', 'page.updated', 'page.moved', 'page.trashed', 'page.restored', 'page.published'];

/** The feeds of this process: a publish from here (the dispatcher) reaches them. */
const feeds = new Set<PageChangeFeed>();

export class PageChangeFeed {
  private readonly listeners = new Set<(pageId: string) => void>();
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  start() {
    feeds.add(this);
    if (!this.redis) return;
    const subscriber = subscribeToChannel<string>(
      this.redis,
      this.log,
      { channel: PAGE_CHANGES_CHANNEL, area: 'page changes', outage: 'MCP subscriptions miss changes made on other instances' },
      (pageId) => this.deliver(pageId),
    );
    this.subscriber = subscriber;
  }

  get sharesThroughRedis(): boolean {
    return !!this.redis;
  }

  /** Resolves once the Redis subscription is in place (immediately without Redis). */
  async ready(): Promise<void> {
    return subscribed(this.subscriber);
  }

  deliver(pageId: string) {
    for (const listener of this.listeners) listener(pageId);
  }

  /** Calls `listener` with each changed page's id; returns the unsubscribe. */
  listen(listener: (pageId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async publish(pageIds: string[]) {
    if (this.redis) await this.redis.publish(PAGE_CHANGES_CHANNEL, JSON.stringify(pageIds));
    else for (const id of pageIds) this.deliver(id);
  }

  close() {
    feeds.delete(this);
    this.listeners.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}

/** Announces these pages changed: once through Redis when a feed here has it, and directly to the feeds here without. */
export async function publishPageChanges(pageIds: string[]) {
  if (pageIds.length === 0 || feeds.size === 0) return;
  for (const feed of feeds) if (!feed.sharesThroughRedis) for (const id of pageIds) feed.deliver(id);
  try {
    await [...feeds].find((f) => f.sharesThroughRedis)?.publish(pageIds);
  } catch {
    // Best effort: nothing replays a missed announcement; the page itself is read fresh.
  }
}

/** The dispatcher's after-commit hook: the pages these events changed, once each. */
export async function afterPageChangesCommitted(db: Db, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0 || feeds.size === 0) return;
  const rows = await db
    .selectFrom('domainEvents')
    .select('pageId')
    .distinct()
    .where('id', 'in', eventIds)
    .where('type', 'in', PAGE_CHANGING)
    .where('pageId', 'is not', null)
    .execute();
  await publishPageChanges(rows.map((r) => r.pageId as string));
}
