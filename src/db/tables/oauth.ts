import type { CreatedAt, Json } from '../types.js';

/** One object oidc-provider stores (src/areas/oauth/oauth.adapter.ts); codes' and tokens' ids are sha256 hashes. */
export interface OAuthRecordTable {
  model: string;
  id: string;
  payload: Json;
  grantId: string | null;
  uid: string | null;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

/** How an app told kb who it is. */
export type OAuthRegistration = 'metadata_document' | 'dynamic';

/** A grant a person gave an app (its id is oidc-provider's grant id): what Settings › Connected apps lists. */
export interface OAuthConnectionTable {
  id: string;
  userId: string;
  /** The only workspace its tokens reach. */
  workspaceId: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  registration: OAuthRegistration;
  /** Granted scopes: `read`, `write`, `admin`. */
  scopes: string[];
  createdAt: CreatedAt;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface OAuthTables {
  oauthRecords: OAuthRecordTable;
  oauthConnections: OAuthConnectionTable;
}
