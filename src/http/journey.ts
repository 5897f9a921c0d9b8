import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * The user journey: each user's most recent requests (method, route pattern, status, time, a short summary),
 * recorded after every authenticated response and attached to the user-made bug reports. In process memory (an LRU
 * over users) or, with Redis, a capped list per user shared by every instance.
 */

export interface JourneyAction {
  /** The request id. */
  id: string;
  /** `api`, or `mcp` for the tool-protocol endpoints. */
  source: string;
  summary: string;
  timestamp: string;
  method: string;
  route: string;
  status: number;
}

export interface Journey {
  /** Newest first. */
  recentActions: JourneyAction[];
  /** The first action after a pause of more than SESSION_GAP_MS; null when nothing was recorded. */
  sessionStartedAt: string | null;
}

export interface JourneyStore {
  record(userId: string, action: JourneyAction): Promise<void>;
  recent(userId: string): Promise<Journey>;
}

export const JOURNEY_LENGTH = 20;
export const SESSION_GAP_MS = 30 * 60 * 1000;
const MAX_USERS = 10_000;
const REDIS_TTL_S = 24 * 3600;

interface Trail {
  sessionStartedAt: number;
  lastAt: number;
  actions: JourneyAction[];
}

/** An LRU over users (the least recently active user is forgotten first), `JOURNEY_LENGTH` actions each. */
export class MemoryJourneyStore implements JourneyStore {
  private readonly trails = new Map<string, Trail>();
  constructor(private readonly maxUsers = MAX_USERS) {}

  async record(userId: string, action: JourneyAction): Promise<void> {
    this.recordSync(userId, action);
  }

  recordSync(userId: string, action: JourneyAction): void {
    const at = Date.parse(action.timestamp);
    const trail = this.trails.get(userId);
    this.trails.delete(userId); // re-inserted last: Map order is the LRU order
    const fresh = !trail || at - trail.lastAt > SESSION_GAP_MS;
    const next: Trail = {
      sessionStartedAt: fresh ? at : trail.sessionStartedAt,
      lastAt: at,
      actions: [action, ...(trail?.actions ?? [])].slice(0, JOURNEY_LENGTH),
    };
    this.trails.set(userId, next);
    if (this.trails.size > this.maxUsers) this.trails.delete(this.trails.keys().next().value as string);
  }

  async recent(userId: string): Promise<Journey> {
    const trail = this.trails.get(userId);
    if (!trail) return { recentActions: [], sessionStartedAt: null };
    return { recentActions: [...trail.actions], sessionStartedAt: new Date(trail.sessionStartedAt).toISOString() };
  }
}

/**
 * A list per user (`LPUSH` + `LTRIM`) and a session marker, both with a TTL; while Redis cannot be reached the
 * memory store stands in, so recording never fails a request and a report still gets this instance's view.
 */
export class RedisJourneyStore implements JourneyStore {
  private readonly fallback = new MemoryJourneyStore();
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'kb-journey',
    private readonly log?: FastifyBaseLogger,
  ) {}

  async record(userId: string, action: JourneyAction): Promise<void> {
    this.fallback.recordSync(userId, action);
    const list = `${this.prefix}:${userId}`;
    const session = `${list}:session`;
    const at = Date.parse(action.timestamp);
    try {
      const prev = await this.redis.get(session);
      const [start, last] = (prev ?? '').split(',').map(Number);
      const startedAt = prev && at - last <= SESSION_GAP_MS ? start : at;
      await this.redis
        .multi()
        .set(session, `${startedAt},${at}`, 'EX', REDIS_TTL_S)
        .lpush(list, JSON.stringify(action))
        .ltrim(list, 0, JOURNEY_LENGTH - 1)
        .expire(list, REDIS_TTL_S)
        .exec();
    } catch (err) {
      this.log?.debug({ err }, 'journey: Redis unavailable, kept in memory');
    }
  }

  async recent(userId: string): Promise<Journey> {
    const list = `${this.prefix}:${userId}`;
    try {
      const [items, session] = await Promise.all([this.redis.lrange(list, 0, JOURNEY_LENGTH - 1), this.redis.get(`${list}:session`)]);
      const start = Number((session ?? '').split(',')[0]);
      return {
        recentActions: items.map((i) => JSON.parse(i) as JourneyAction),
        sessionStartedAt: session && Number.isFinite(start) ? new Date(start).toISOString() : null,
      };
    } catch (err) {
      this.log?.debug({ err }, 'journey: Redis unavailable, read from memory');
      return this.fallback.recent(userId);
    }
  }
}

export function createJourneyStore(redis?: Redis, prefix?: string, log?: FastifyBaseLogger): JourneyStore {
  return redis ? new RedisJourneyStore(redis, prefix, log) : new MemoryJourneyStore();
}

/**
 * Records every authenticated request with a route (after its response: never on the request's path). Health
 * checks, CORS preflights and unknown routes are not actions.
 */
export function registerJourney(app: FastifyInstance, store: JourneyStore) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const userId = request.actor?.userId;
    if (userId && route && !request.is404 && request.method !== 'OPTIONS' && request.method !== 'HEAD' && route !== '/api/health') {
      const status = reply.statusCode;
      store
        .record(userId, {
          id: String(request.id),
          source: /^\/(api\/)?mcp/.test(route) ? 'mcp' : 'api',
          summary: `${request.method} ${route} → ${status}`,
          timestamp: new Date().toISOString(),
          method: request.method,
          route,
          status,
        })
        .catch((err) => request.log.warn({ err }, 'journey: could not record'));
    }
    done();
  });
}
