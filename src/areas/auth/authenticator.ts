import type { Actor, ClientInfo } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, unauthorized } from '../../errors.js';
import { apiKeysRepo } from './auth.repo.js';
import { sessionsRepo } from './sessions.repo.js';
import { looksLikeOAuthToken, type OAuthTokens } from '../oauth/oauth.authenticate.js';
import { API_KEY_PREFIX, hashApiKey, looksLikeJwt, type TokenIssuer } from './tokens.js';

interface CachedKey {
  actor: Actor;
  lastUsedAt: number;
  /** Until when this cache entry holds. */
  expiresAt: number;
  /** When the key itself stops working (ms), or null. */
  keyExpiresAt: number | null;
}

interface CachedSession {
  userId: string;
  lastSeenAt: number;
  /** Until when this cache entry holds. */
  cachedUntil: number;
  /** When the session itself ends (ms). */
  sessionExpiresAt: number;
}

/** What a revocation needs of the authenticator: to stop trusting its cached answer at once. */
export interface SessionCache {
  forgetSessions(sessionIds: readonly string[]): void;
}

/**
 * Turns a bearer credential into an actor. API keys are looked up by hash and session JWTs by their session id,
 * both cached briefly (`cacheMs`) so the hot path costs no query: a revocation made on this instance drops the entry
 * at once, other instances notice within `cacheMs`. `lastUsedAt` / `lastSeenAt` are written at most once a minute,
 * without holding up the request.
 */
export class Authenticator implements SessionCache {
  private readonly cache = new Map<string, CachedKey>();
  private readonly sessions = new Map<string, CachedSession>();
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenIssuer,
    /** Access tokens given to apps (areas/oauth). */
    readonly appTokens: OAuthTokens,
    private readonly cacheMs = 10_000,
    private readonly touchEveryMs = 60_000,
  ) {}

  async authenticate(bearer: string, client?: ClientInfo, now = Date.now()): Promise<Actor> {
    if (bearer.startsWith(API_KEY_PREFIX)) return this.fromApiKey(bearer, now);
    if (looksLikeJwt(bearer)) return this.fromJwt(bearer, client?.address ?? null, now);
    if (looksLikeOAuthToken(bearer)) return this.appTokens.authenticate(bearer, now);
    throw unauthorized('Malformed credential: expected an API key, a JWT or an OAuth access token');
  }

  /**
   * A JWT counts only while its session is open: not revoked, not expired. The session row also proves the account
   * exists (it goes with the user), so a token from a reset database is refused, not a 404 or 500 later.
   */
  private async fromJwt(token: string, address: string | null, now: number): Promise<Actor> {
    const { userId, sessionId } = await this.tokens.verify(token);
    let entry = this.sessions.get(sessionId);
    if (!entry || entry.cachedUntil < now) {
      const row = await sessionsRepo.find(this.db, sessionId);
      if (!row || row.userId !== userId || row.revokedAt !== null) {
        this.sessions.delete(sessionId);
        throw unauthorized('This session has been signed out; sign in again');
      }
      entry = { userId, lastSeenAt: row.lastSeenAt.getTime(), cachedUntil: now + this.cacheMs, sessionExpiresAt: row.expiresAt.getTime() };
      if (this.sessions.size > 10_000) this.sessions.clear();
      this.sessions.set(sessionId, entry);
    }
    if (entry.sessionExpiresAt <= now) throw new AppError('TOKEN_EXPIRED', 'This session has expired; sign in again');
    if (now - entry.lastSeenAt >= this.touchEveryMs) {
      const seen = entry;
      seen.lastSeenAt = now;
      sessionsRepo.touch(this.db, sessionId, new Date(now), address).catch(() => {
        seen.lastSeenAt = 0; // try again next time
      });
    }
    return { userId, via: 'jwt', apiKeyId: null, sessionId };
  }

  forget(keyHash: string) {
    this.cache.delete(keyHash);
  }

  forgetSessions(sessionIds: readonly string[]) {
    for (const id of sessionIds) this.sessions.delete(id);
  }

  private async fromApiKey(key: string, now: number): Promise<Actor> {
    const keyHash = hashApiKey(key);
    let entry = this.cache.get(keyHash);
    if (!entry || entry.expiresAt < now) {
      const row = await apiKeysRepo.findActiveByHash(this.db, keyHash);
      if (!row) {
        this.cache.delete(keyHash);
        throw unauthorized('Unknown or revoked API key');
      }
      entry = {
        actor: {
          userId: row.userId,
          via: 'api_key',
          apiKeyId: row.id,
          ...(row.access === 'read-only' ? { readOnly: true } : {}),
          ...(row.workspaceId ? { workspaceId: row.workspaceId } : {}),
        },
        lastUsedAt: row.lastUsedAt?.getTime() ?? 0,
        expiresAt: now + this.cacheMs,
        keyExpiresAt: row.expiresAt?.getTime() ?? null,
      };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(keyHash, entry);
    }
    if (entry.keyExpiresAt !== null && entry.keyExpiresAt <= now) throw new AppError('TOKEN_EXPIRED', 'This API key has expired; create a new one');
    if (now - entry.lastUsedAt >= this.touchEveryMs) {
      entry.lastUsedAt = now;
      const id = entry.actor.apiKeyId as string;
      apiKeysRepo.touch(this.db, id, new Date(now)).catch(() => {
        entry.lastUsedAt = 0; // try again next time
      });
    }
    return entry.actor;
  }
}
