import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/index.js';
import { hashApiKey } from '../auth/tokens.js';

/**
 * oidc-provider's storage in PostgreSQL (`oauth_records`), one row per stored object. The ids of codes and tokens are
 * bearer secrets: only their sha256 is kept (the `jti` is taken out of the stored payload and put back from the id
 * asked for), so a copy of the database hands out no working token. Expired rows are ignored on read and deleted by
 * `deleteExpiredOAuthRecords` (database upkeep).
 */
const SECRET_IDS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'RegistrationAccessToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'InitialAccessToken',
  'PushedAuthorizationRequest',
]);

/**
 * How long an app that registered itself (dynamic registration) stays registered while no one has it connected: from
 * its registration, and again from its last connection's end. A client that comes back later registers again (the
 * MCP SDK does so by itself on `invalid_client`); the registrations of clients that never finish stay no longer.
 */
export const UNUSED_CLIENT_TTL_S = 7 * 86_400;

/** What a revocation tells the rest of kb: a grant was revoked (by the app or a refresh-token replay). */
export interface OAuthRevocationListener {
  grantRevoked(grantId: string): Promise<void>;
  tokenDestroyed(tokenHash: string): void;
}

/** The payload as text: oidc-provider's keys are snake_case, which the database layer would turn to camelCase in an object. */
export const storedPayload = sql<string>`payload::text`.as('payload');

/** The stored id of a token (its hash); the form the authenticator looks access tokens up by. */
export const oauthTokenKey = (token: string) => hashApiKey(token);

export function oauthAdapter(db: Db, listener: OAuthRevocationListener) {
  return class KbOAuthAdapter implements Adapter {
    private readonly secret: boolean;
    constructor(private readonly model: string) {
      this.secret = SECRET_IDS.has(model);
    }

    private key(id: string) {
      return this.secret ? oauthTokenKey(id) : id;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const stored = this.secret ? { ...payload, jti: undefined } : payload;
      const row = {
        payload: JSON.stringify(stored),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      // A new registration (oidc-provider gives clients no lifetime): until someone connects it (oauthRepo.keepClient).
      if (this.model === 'Client' && !expiresIn) row.expiresAt = new Date(Date.now() + UNUSED_CLIENT_TTL_S * 1000);
      await db
        .insertInto('oauthRecords')
        .values({ model: this.model, id: this.key(id), ...row })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(this.model === 'Client' ? { payload: row.payload } : row))
        .execute();
    }

    async find(id: string) {
      const row = await this.live(db.selectFrom('oauthRecords').where('model', '=', this.model).where('id', '=', this.key(id)));
      return row && (this.secret ? { ...row, jti: id } : row);
    }

    async findByUid(uid: string) {
      return this.live(db.selectFrom('oauthRecords').where('model', '=', this.model).where('uid', '=', uid));
    }

    async findByUserCode() {
      return undefined; // the device flow is not offered
    }

    async consume(id: string) {
      await db.updateTable('oauthRecords').set({ consumedAt: new Date() }).where('model', '=', this.model).where('id', '=', this.key(id)).execute();
    }

    async destroy(id: string) {
      await db.deleteFrom('oauthRecords').where('model', '=', this.model).where('id', '=', this.key(id)).execute();
      if (this.model === 'AccessToken') listener.tokenDestroyed(this.key(id));
    }

    async revokeByGrantId(grantId: string) {
      await db.deleteFrom('oauthRecords').where('grantId', '=', grantId).execute();
      await listener.grantRevoked(grantId);
    }

    /** The payload of the one row `query` selects, unless it has expired; `consumed` marks a used code or token. */
    private async live(query: ReturnType<typeof db.selectFrom<'oauthRecords'>>): Promise<AdapterPayload | undefined> {
      const row = await query.select([storedPayload, 'expiresAt', 'consumedAt']).executeTakeFirst();
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}

/** Upkeep: drops what has expired (codes, tokens, interactions, sessions, unused registrations) and the registration tokens of apps no longer registered. */
export async function deleteExpiredOAuthRecords(db: Db, now = new Date()) {
  const expired = await db.deleteFrom('oauthRecords').where('expiresAt', '<', now).executeTakeFirst();
  const orphaned = await db
    .deleteFrom('oauthRecords as t')
    .where('t.model', '=', 'RegistrationAccessToken')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('oauthRecords as c').select(sql`1`.as('one')).where('c.model', '=', 'Client').where('c.id', '=', sql<string>`t.payload->>'clientId'`),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(expired.numDeletedRows) + Number(orphaned.numDeletedRows);
}
