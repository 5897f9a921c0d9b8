import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * A second connection to the app's Redis for a subscriber (one in subscriber mode can issue nothing else). While
 * Redis is away it retries quietly: one warning per outage (`outage` says what stops working meanwhile), not an
 * unhandled error event per attempt.
 */
export function quietConnection(redis: Redis, log: Pick<FastifyBaseLogger, 'warn'>, outage: string): Redis {
  const connection = redis.duplicate({ enableOfflineQueue: true });
  let warned = false;
  connection.on('error', (err) => {
    if (!warned) log.warn({ err }, outage);
    warned = true;
  });
  connection.on('ready', () => {
    warned = false;
  });
  return connection;
}

/**
 * Subscribes a quiet connection (`quietConnection`) to `channel`, whose messages are JSON arrays: `deliver` gets each
 * item. `area` names the subscriber in warnings. Returns the connection (disconnect it to leave).
 */
export function subscribeToChannel<T>(
  redis: Redis,
  log: Pick<FastifyBaseLogger, 'warn'>,
  options: { channel: string; area: string; outage: string },
  deliver: (item: T) => void,
): Redis {
  const subscriber = quietConnection(redis, log, `${options.area}: Redis is not answering; ${options.outage}`);
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      for (const item of JSON.parse(message) as T[]) deliver(item);
    } catch (err) {
      log.warn({ err }, `${options.area}: a message could not be read`);
    }
  });
  void subscriber.subscribe(options.channel).catch((err) => log.warn({ err }, `${options.area}: could not subscribe`));
  return subscriber;
}

/** Resolves once `subscriber` is connected (or after ~2 s); immediately without one. */
export async function subscribed(subscriber: Redis | null): Promise<void> {
  if (!subscriber) return;
  for (let i = 0; i < 200 && subscriber.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 10));
}
