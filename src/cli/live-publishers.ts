import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { PageChangeFeed } from '../areas/events/page-changes.js';
import { NotificationHub } from '../areas/notifications/notifications.stream.js';

/**
 * A worker process's way to the live streams: the notification hub and the page-change feed over Redis, so what its
 * event dispatches publish goes out through Redis to every web instance (they listen there). Nothing listens here.
 */
export async function startLivePublishers(redisUrl: string, log: FastifyBaseLogger) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', () => {}); // each subscriber warns once per outage; publishing is best effort
  const hub = new NotificationHub(redis, log);
  const feed = new PageChangeFeed(redis, log);
  hub.start();
  feed.start();
  await Promise.all([hub.ready(), feed.ready()]);
  return {
    stop() {
      hub.close();
      feed.close();
      redis.disconnect();
    },
  };
}
