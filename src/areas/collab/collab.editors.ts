import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** A store waits no longer than this for Redis (the client fails fast when disconnected; this is for a hung one). */
const TAKE_TIMEOUT_MS = 1000;

function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Who edited one live page since its last store: noted as they type, taken (and so cleared) by the store. */
export interface PageEditors {
  edited(userId: string): void;
  take(): Promise<string[]>;
}

/** Without Redis: the people who edited through this instance, the only one. */
export function localEditors(): PageEditors {
  const editors = new Set<string>();
  return {
    edited: (userId) => void editors.add(userId),
    take: async () => {
      const taken = [...editors];
      editors.clear();
      return taken;
    },
  };
}

export interface SharedEditorsOptions {
  redis: Redis;
  /** The collab server's key prefix: the set of a page is `${prefix}:editors:${pageId}`. */
  prefix: string;
  /** At most one write per page and instance this often; the last edit of a burst is written at the end of it. */
  recordEveryMs: number;
  /** A set no store takes (every instance gone) expires after this long. */
  ttlMs: number;
  log: FastifyBaseLogger;
}

/**
 * With Redis: the editors of a page on every instance, in one Redis set that whichever instance stores the page takes
 * (SMEMBERS and DEL in one MULTI, so two stores never both name someone, and no one is left for a later version).
 * Typing costs no round trip a keystroke: an instance writes who edited at the first edit, then at most once every
 * `recordEveryMs` (the last edit of a burst is always written, at the end of its interval). Until written, they are
 * this instance's own and go into a store it makes. If Redis fails, the people not yet written stay with this
 * instance (its stores name them) and one warning is logged until Redis answers again: a store never fails for it.
 */
export function sharedEditors({ redis, prefix, recordEveryMs, ttlMs, log }: SharedEditorsOptions) {
  let warned = false;
  const failed = (err: unknown, what: string) => {
    if (!warned) log.warn({ err }, `co-editing: could not ${what} in Redis; versions name only this instance's editors until it answers`);
    warned = true;
  };

  return (pageId: string): PageEditors => {
    const key = `${prefix}:editors:${pageId}`;
    let unwritten = new Set<string>();
    let lastWriteAt = 0;
    let timer: NodeJS.Timeout | null = null;

    const write = async () => {
      timer = null;
      if (unwritten.size === 0) return;
      const users = [...unwritten];
      unwritten = new Set();
      lastWriteAt = Date.now();
      try {
        await redis
          .multi()
          .sadd(key, ...users)
          .pexpire(key, ttlMs)
          .exec();
        warned = false;
      } catch (err) {
        for (const user of users) unwritten.add(user);
        failed(err, 'note who edited');
      }
    };

    return {
      edited(userId) {
        unwritten.add(userId);
        if (timer) return;
        const wait = lastWriteAt + recordEveryMs - Date.now();
        if (wait <= 0) void write();
        else {
          timer = setTimeout(() => void write(), wait);
          timer.unref();
        }
      },
      async take() {
        const own = [...unwritten];
        unwritten.clear();
        try {
          const [[err, members]] = (await within(TAKE_TIMEOUT_MS, redis.multi().smembers(key).del(key).exec())) as [[Error | null, string[]]];
          if (err) throw err;
          warned = false;
          return [...new Set([...own, ...members])];
        } catch (err) {
          failed(err, 'read who edited');
          return own;
        }
      },
    };
  };
}
