import type Provider from 'oidc-provider';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { recordAudit } from '../audit/audit.record.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { listWorkspaces } from '../workspaces/workspaces.service.js';
import { deleteExpiredOAuthRecords } from './oauth.adapter.js';
import type { OAuthGrantCache } from './oauth.authenticate.js';
import { oauthRepo } from './oauth.repo.js';
import { grantedScopes, type OAuthScope, protectedResources } from './oauth.scopes.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type Client = NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>;

/** The app an interaction is for; one that vanished meanwhile is a 404. */
async function clientOf(provider: Provider, interaction: Interaction): Promise<Client> {
  const client = await provider.Client.find(String(interaction.params.client_id));
  if (!client) throw notFound('OAuth client', String(interaction.params.client_id));
  return client;
}

function describeClient(client: Client, interaction: Interaction) {
  const metadata = client.metadata();
  const redirect = String(interaction.params.redirect_uri ?? metadata.redirect_uris?.[0] ?? '');
  return {
    id: client.clientId,
    name: String(metadata.client_name ?? client.clientId),
    uri: typeof metadata.client_uri === 'string' ? metadata.client_uri : null,
    logoUri: typeof metadata.logo_uri === 'string' ? metadata.logo_uri : null,
    registration: (client as Client & { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument ? ('metadata_document' as const) : ('dynamic' as const),
    redirectHost: URL.canParse(redirect) ? new URL(redirect).host : redirect,
  };
}

/** The scopes an interaction asks for; none named: `read` and `write` (what an agent needs to work), for the person to narrow. */
const askedScopes = (interaction: Interaction): OAuthScope[] => {
  const asked = grantedScopes(String(interaction.params.scope ?? ''));
  return asked.length ? asked : ['read', 'write'];
};

/** What the consent screen shows: who asks, for what, and the workspaces the person may give it. */
export async function consentDetails(ctx: Ctx, provider: Provider, interaction: Interaction) {
  requireActor(ctx);
  const client = await clientOf(provider, interaction);
  const workspaces = await listWorkspaces(ctx);
  return {
    uid: interaction.uid,
    client: describeClient(client, interaction),
    scopes: askedScopes(interaction),
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, hostname: w.hostname, role: w.role as string })),
  };
}

export type ConsentDecisionInput = { approve: true; workspaceId: string; scopes: OAuthScope[] } | { approve: false };

/**
 * The person's answer. Approved: a grant for the scopes both asked and chosen, on kb's API, recorded as a connection
 * limited to the chosen workspace (audit `oauth.app_connected`). Either way the interaction is finished and the
 * browser is sent back to the app (with a code, or `access_denied`).
 */
export async function decideConsent(ctx: Ctx, provider: Provider, interaction: Interaction, input: ConsentDecisionInput): Promise<{ redirectTo: string }> {
  const actor = requireActor(ctx);
  if (actor.via !== 'jwt') throw forbidden('Only the person, signed in to the web app, can connect an app', { reason: 'session_required' });
  if (!input.approve) {
    interaction.result = { error: 'access_denied', error_description: 'The person declined to connect the app' };
  } else {
    await requireWorkspaceRole(ctx, input.workspaceId, 'viewer');
    const client = await clientOf(provider, interaction);
    const asked = askedScopes(interaction);
    const scopes = grantedScopes(input.scopes.filter((s) => asked.includes(s)).join(' '));
    if (!scopes.length) throw new AppError('VALIDATION_ERROR', 'Grant at least one of the scopes the app asked for', { asked });
    const grant = new provider.Grant({ accountId: actor.userId, clientId: client.clientId });
    grant.addOIDCScope(scopes); // also named at the top level of the request (as clients registered them)
    grant.addResourceScope(String(interaction.params.resource ?? protectedResources(provider.issuer).default), scopes);
    const grantId = await grant.save();
    const described = describeClient(client, interaction);
    await ctx.db.transaction().execute(async (trx) => {
      await oauthRepo.keepClient(trx, client.clientId);
      await oauthRepo.insertConnection(trx, {
        id: grantId,
        userId: actor.userId,
        workspaceId: input.workspaceId,
        clientId: client.clientId,
        clientName: described.name.slice(0, 200),
        clientUri: described.uri,
        registration: described.registration,
        scopes,
      });
      await recordAudit(trx, ctx, {
        workspaceId: input.workspaceId,
        action: 'oauth.app_connected',
        targetType: 'oauth_connection',
        targetId: grantId,
        details: { client: described.name, clientId: client.clientId, scopes },
      });
    });
    interaction.result = { login: { accountId: actor.userId }, consent: { grantId } };
    // The request goes on asking for what was granted: a narrower choice than asked is not a reason to ask again.
    interaction.params.scope = [
      ...String(interaction.params.scope ?? '')
        .split(' ')
        .filter((s) => s && !grantedScopes(s).length),
      ...scopes,
    ].join(' ');
  }
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  // Housekeeping where it costs nothing noticeable: what has expired goes as new consents come in (an index range).
  await deleteExpiredOAuthRecords(ctx.db, ctx.now());
  return { redirectTo: interaction.returnTo };
}

/** The caller's connected apps. */
export async function listConnections(ctx: Ctx) {
  const actor = requireActor(ctx);
  const rows = await oauthRepo.listConnections(ctx.db, actor.userId);
  return rows.map((r) => ({
    id: r.id,
    client: { id: r.clientId, name: r.clientName, uri: r.clientUri, registration: r.registration },
    workspace: { id: r.workspaceId, name: r.workspaceName },
    scopes: r.scopes as OAuthScope[],
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Disconnects one of the caller's apps: its tokens stop working at once (on this instance; within ~10 s elsewhere). */
export async function disconnectApp(ctx: Ctx, cache: OAuthGrantCache, id: string) {
  const actor = requireActor(ctx);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const ended = await oauthRepo.revoke(trx, id, ctx.now(), actor.userId);
    if (ended)
      await recordAudit(trx, ctx, {
        workspaceId: ended.workspaceId,
        action: 'oauth.app_disconnected',
        targetType: 'oauth_connection',
        targetId: id,
        details: { client: ended.clientName, clientId: ended.clientId, by: 'person' },
      });
    return ended;
  });
  if (!row) throw notFound('Connected app', id);
  cache.forgetConnection(id);
  return { id, deleted: true as const };
}
