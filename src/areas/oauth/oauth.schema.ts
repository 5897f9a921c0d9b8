import { z } from 'zod';
import { envelope, Id, Timestamp } from '../../schema.js';
import { OAUTH_SCOPES } from './oauth.scopes.js';

export const OAuthScopeName = z.enum(OAUTH_SCOPES);

export const ConsentParams = z.object({ uid: z.string().min(1).max(100) });

const ConsentClient = z.object({
  id: z.string().describe('The client_id: an https URL for an app that names itself by a client metadata document'),
  name: z.string(),
  uri: z.string().nullable().describe('The app’s home page, as it says'),
  logoUri: z.string().nullable(),
  registration: z.enum(['metadata_document', 'dynamic']),
  redirectHost: z.string().describe('Where the browser goes back to after the decision (the redirect URI’s host)'),
});

export const ConsentDetails = envelope(
  z.object({
    uid: z.string(),
    client: ConsentClient,
    scopes: z.array(OAuthScopeName).describe('What the app asks for (`write` and `admin` imply `read`)'),
    workspaces: z.array(z.object({ id: z.string(), name: z.string(), hostname: z.string(), role: z.string() })),
  }),
);

export const ConsentDecisionBody = z.discriminatedUnion('approve', [
  z.object({
    approve: z.literal(true),
    workspaceId: Id.describe('The one workspace the app’s tokens may reach'),
    scopes: z.array(OAuthScopeName).min(1).max(3).describe('The scopes granted: a subset of those asked for (`read` always comes with)'),
  }),
  z.object({ approve: z.literal(false) }),
]);

export const ConsentDecision = envelope(z.object({ redirectTo: z.string().describe('Where the browser goes next: back to the app') }));

export const OAuthConnection = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string(), uri: z.string().nullable(), registration: z.enum(['metadata_document', 'dynamic']) }),
  workspace: z.object({ id: z.string(), name: z.string() }),
  scopes: z.array(OAuthScopeName),
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
});

export const OAuthConnectionList = envelope(z.array(OAuthConnection));
export const OAuthConnectionParams = z.object({ id: Id });
