import { Redis } from 'ioredis';

/** Redis on 127.0.0.1:6379, or undefined; in CI (env `CI` set) its absence fails the tests instead of skipping them. */
export async function connectRedis(): Promise<Redis | undefined> {
  const client = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    if ((await client.ping()) === 'PONG') return client;
  } catch {
    client.disconnect();
  }
  return undefined;
}

export function requireRedis(redis: Redis | undefined, ctx: { skip: () => void }): redis is Redis {
  if (redis) return true;
  if (process.env.CI) throw new Error('Redis is not answering on 127.0.0.1:6379, and CI must run the Redis tests');
  ctx.skip();
  return false;
}
