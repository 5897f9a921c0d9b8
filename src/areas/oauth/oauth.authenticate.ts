import type { Actor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { AppError, unauthorized } from '../../errors.js';
import { recordAudit } from '../audit/audit.record.js';
import { type OAuthRevocationListener, oauthTokenKey } from './oauth.adapter.js';
import { oauthRepo } from './oauth.repo.js';

/** What a disconnection tells the authenticator: stop trusting the cached tokens of that connection at once. */
export interface OAuthGrantCache {
  forgetConnection(connectionId: string): void;
}

interface CachedToken {
  actor: Actor;
  connectionId: string;
  /** Until when this cache entry holds (ms). */
  cachedUntil: number;
  /** When the token itself expires (ms). */
  expiresAt: number;
  lastUsedAt: number;
}

/** oidc-provider's opaque tokens: 43 base64url characters (256 bits). */
export const looksLikeOAuthToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Access tokens kb issued to apps (areas/oauth): looked up by hash with their connection, cached briefly like API
 * keys. A token acts as its person with the limits of its connection: one workspace; read only without `write`; at
 * most an editor without `admin`. A token that expired, was revoked, or whose app was disconnected is a 401.
 */
export class OAuthTokens implements OAuthGrantCache, OAuthRevocationListener {
  private readonly cache = new Map<string, CachedToken>();
  constructor(
    private readonly db: Db,
    private readonly cacheMs = 10_000,
    private readonly touchEveryMs = 60_000,
  ) {}

  async authenticate(token: string, now = Date.now()): Promise<Actor> {
    const key = oauthTokenKey(token);
    let entry = this.cache.get(key);
    if (!entry || entry.cachedUntil < now) {
      const row = await oauthRepo.findAccessToken(this.db, key);
      const payload = row && (JSON.parse(row.payload) as { accountId?: string; scope?: string });
      if (!row || row.revokedAt || payload?.accountId !== row.userId) {
        this.cache.delete(key);
        throw unauthorized('Unknown or revoked access token');
      }
      const scopes = new Set((payload.scope ?? '').split(' ').filter((s) => row.scopes.includes(s)));
      entry = {
        actor: {
          userId: row.userId,
          via: 'oauth',
          apiKeyId: null,
          oauthConnectionId: row.connectionId,
          workspaceId: row.workspaceId,
          ...(scopes.has('write') ? {} : { readOnly: true }),
          ...(scopes.has('admin') ? {} : { withoutAdmin: true }),
        },
        connectionId: row.connectionId,
        cachedUntil: now + this.cacheMs,
        expiresAt: row.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY,
        lastUsedAt: row.lastUsedAt?.getTime() ?? 0,
      };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, entry);
    }
    if (entry.expiresAt <= now) throw new AppError('TOKEN_EXPIRED', 'This access token has expired; the app refreshes it with its refresh token');
    if (now - entry.lastUsedAt >= this.touchEveryMs) {
      const used = entry;
      used.lastUsedAt = now;
      oauthRepo.touch(this.db, used.connectionId, new Date(now)).catch(() => {
        used.lastUsedAt = 0; // try again next time
      });
    }
    return entry.actor;
  }

  forgetConnection(connectionId: string) {
    for (const [key, entry] of this.cache) if (entry.connectionId === connectionId) this.cache.delete(key);
  }

  tokenDestroyed(tokenHash: string) {
    this.cache.delete(tokenHash);
  }

  /** The app revoked its grant (at the revocation endpoint), or oidc-provider did on a refresh-token replay: the connection ends. */
  async grantRevoked(grantId: string) {
    const ended = await this.db.transaction().execute(async (trx) => {
      const row = await oauthRepo.revoke(trx, grantId, new Date());
      if (row)
        await recordAudit(
          trx,
          { actor: null },
          {
            workspaceId: row.workspaceId,
            action: 'oauth.app_disconnected',
            actorId: row.userId,
            targetType: 'oauth_connection',
            targetId: grantId,
            details: { client: row.clientName, clientId: row.clientId, by: 'app' },
          },
        );
      return row;
    });
    if (ended) this.forgetConnection(grantId);
  }
}
