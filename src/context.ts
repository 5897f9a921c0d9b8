import type { FastifyBaseLogger } from 'fastify';
import type { TokenIssuer } from './areas/auth/tokens.js';
import type { OAuthGrantCache } from './areas/oauth/oauth.authenticate.js';
import type { BlobStore } from './blobs/blob-store.js';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { unauthorized } from './errors.js';

/** Who is acting: a user, through a JWT, one of their API keys, or an access token they gave an app (OAuth). */
export interface Actor {
  userId: string;
  via: 'jwt' | 'api_key' | 'oauth';
  apiKeyId: string | null;
  /** The session of a JWT caller (areas/auth/sessions.ts); absent for API keys and internal callers. */
  sessionId?: string;
  /** A read-only API key: every write is refused (REST and MCP alike). Absent: the user's own rights. */
  readOnly?: boolean;
  /** An API key or app token limited to one workspace: in every other one the actor is not a member. Absent: all the user's workspaces. */
  workspaceId?: string;
  /** An app token without the `admin` scope: the user's role counts as at most editor. */
  withoutAdmin?: boolean;
  /** The connected app (areas/oauth) an app token belongs to. */
  oauthConnectionId?: string;
}

/** What every service call receives: never a Fastify request. */
export interface Ctx {
  db: Db;
  actor: Actor | null;
  log: FastifyBaseLogger;
  now: () => Date;
  requestId?: string;
  /** The `x-workspace-id` header, when the request had one: a hint for endpoints that name no workspace. */
  workspaceHint?: string;
  /** Process-wide collaborators: settings and the token issuer. */
  env: ServiceEnv;
  /** Where the request came from (HTTP only): for sessions and the audit log. */
  client?: ClientInfo;
}

/** The caller's address and user agent, as the HTTP layer saw them. */
export interface ClientInfo {
  address: string | null;
  userAgent: string | null;
}

export interface ServiceEnv {
  config: Config;
  tokens: TokenIssuer;
  /** Attachment bytes (disk under DATA_DIR/blobs by default). */
  blobs: BlobStore;
  /** Co-editing's open documents, where the web service runs them (absent in a worker process). */
  liveDocuments?: LiveDocuments;
  /** This instance's cache of apps' access tokens (areas/oauth), told when a connection ends outside a disconnect. */
  connectedApps?: OAuthGrantCache;
}

/** Where a write from outside reaches the people editing a page live (areas/collab). */
export interface LiveDocuments {
  /** Merges a Yjs update (a write made through the API) into the page's live document, on every instance that has it open. */
  mergeOutsideWrite(pageId: string, update: Uint8Array): Promise<void>;
  /** Tells everyone with the page open, on every instance, its new title (a stateless message `{ type: 'title', title }`). */
  announceTitle(pageId: string, title: string): Promise<void>;
}

export function requireActor(ctx: Ctx): Actor {
  if (!ctx.actor) throw unauthorized();
  return ctx.actor;
}
