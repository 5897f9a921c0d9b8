import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit } from '../audit/audit.record.js';
import { BlockedAddressError } from '../research/research.outbound.js';
import { assertWorkspaceRole, memberRole, memberScope, requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { pinnedAddress, urlFormProblem, webhookAddressRule } from './webhooks.deliver.js';
import { presentDelivery, presentWebhook } from './webhooks.present.js';
import { webhooksRepo } from './webhooks.repo.js';
import type { DeliveryListQuery, WebhookCreateBody, WebhookUpdateBody } from './webhooks.schema.js';
import { encryptSecret, newWebhookSecret } from './webhooks.secrets.js';

/**
 * Webhooks act for the whole workspace, so only its admins see or change them (403 for other members, 404 for
 * everyone else). An endpoint's address is checked when it is set and again at every delivery. Its signing secret is
 * answered when made (create, rotate) and never again. Every change is in the audit log, in its transaction.
 */

async function checkEndpointUrl(ctx: Ctx, raw: string) {
  const problem = urlFormProblem(raw);
  if (problem) throw validation('url', problem.reason, problem.message);
  const url = new URL(raw);
  try {
    await pinnedAddress(url, webhookAddressRule(ctx.env.config));
  } catch (err) {
    if (err instanceof BlockedAddressError)
      throw new AppError('VALIDATION_ERROR', `url: ${err.host} is a loopback, private or link-local address; webhooks only reach public addresses`, {
        field: 'url',
        reason: 'private_address',
      });
    throw validation('url', 'unresolvable_host', `url: ${url.hostname} could not be resolved`);
  }
  return url.toString();
}

/** The webhook, if the caller is an admin of its workspace (403 for other members); outside it, the webhook does not exist (404). */
async function accessWebhook(ctx: Ctx, webhookId: string) {
  const row = await webhooksRepo.find(ctx.db, webhookId);
  if (!row) throw notFound('Webhook', webhookId);
  const { role } = await memberRole(ctx.db, row.workspaceId, memberScope(requireActor(ctx)));
  if (!role) throw notFound('Webhook', webhookId);
  assertWorkspaceRole(role, 'admin', row.workspaceId);
  return row;
}

async function read(ctx: Ctx, webhookId: string) {
  const row = await webhooksRepo.find(ctx.db, webhookId);
  if (!row) throw notFound('Webhook', webhookId);
  return presentWebhook(row);
}

function audit(
  ctx: Ctx,
  db: Ctx['db'],
  workspaceId: string,
  action: 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'webhook.secret_rotated',
  webhookId: string,
  details: Record<string, unknown>,
) {
  return recordAudit(db, ctx, { workspaceId, action, targetType: 'webhook', targetId: webhookId, details });
}

export async function createWebhook(ctx: Ctx, input: z.infer<typeof WebhookCreateBody>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, input.workspaceId, 'admin');
  const url = await checkEndpointUrl(ctx, input.url);
  const id = newId();
  const secret = newWebhookSecret();
  await ctx.db.transaction().execute(async (trx) => {
    await webhooksRepo.insert(trx, {
      id,
      workspaceId: input.workspaceId,
      url,
      description: input.description ?? null,
      events: input.events,
      secretEncrypted: encryptSecret(ctx.env, id, secret),
      createdBy: actor.userId,
    });
    await audit(ctx, trx, input.workspaceId, 'webhook.created', id, { url, events: input.events });
  });
  return { webhook: await read(ctx, id), secret };
}

export async function listWebhooks(ctx: Ctx, input: { workspaceId: string }) {
  await requireWorkspaceRole(ctx, input.workspaceId, 'admin');
  return (await webhooksRepo.list(ctx.db, input.workspaceId)).map(presentWebhook);
}

export async function getWebhook(ctx: Ctx, webhookId: string) {
  return presentWebhook(await accessWebhook(ctx, webhookId));
}

export async function updateWebhook(ctx: Ctx, webhookId: string, input: z.infer<typeof WebhookUpdateBody>) {
  const row = await accessWebhook(ctx, webhookId);
  const url = input.url === undefined ? undefined : await checkEndpointUrl(ctx, input.url);
  const changes = { url, events: input.events, description: input.description, enabled: input.enabled };
  const changed = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  await ctx.db.transaction().execute(async (trx) => {
    await webhooksRepo.update(trx, row.workspaceId, webhookId, changed, ctx.now());
    await audit(ctx, trx, row.workspaceId, 'webhook.updated', webhookId, changed);
  });
  return read(ctx, webhookId);
}

export async function deleteWebhook(ctx: Ctx, webhookId: string) {
  const row = await accessWebhook(ctx, webhookId);
  await ctx.db.transaction().execute(async (trx) => {
    await webhooksRepo.delete(trx, row.workspaceId, webhookId);
    await audit(ctx, trx, row.workspaceId, 'webhook.deleted', webhookId, { url: row.url });
  });
  return { id: webhookId, deleted: true as const };
}

/** A new secret, in force at once: deliveries from now on are signed with it only. */
export async function rotateWebhookSecret(ctx: Ctx, webhookId: string) {
  const row = await accessWebhook(ctx, webhookId);
  const secret = newWebhookSecret();
  await ctx.db.transaction().execute(async (trx) => {
    await webhooksRepo.setSecret(trx, row.workspaceId, webhookId, encryptSecret(ctx.env, webhookId, secret), ctx.now());
    await audit(ctx, trx, row.workspaceId, 'webhook.secret_rotated', webhookId, {});
  });
  return { webhook: await read(ctx, webhookId), secret };
}

export async function listDeliveries(ctx: Ctx, webhookId: string, input: z.infer<typeof DeliveryListQuery>) {
  const row = await accessWebhook(ctx, webhookId);
  const rows = await webhooksRepo.listDeliveries(ctx.db, row.workspaceId, webhookId, input.limit, input.cursor);
  const hasMore = rows.length > input.limit;
  const page = rows.slice(0, input.limit);
  return { data: page.map(presentDelivery), meta: { limit: input.limit, hasMore, nextCursor: hasMore ? page[page.length - 1].id : null } };
}

function requireEnabled(row: { id: string; enabled: boolean }) {
  if (!row.enabled) throw validation('enabled', 'webhook_disabled', 'The webhook is disabled: enable it first');
}

/** Sends a delivery again, from its first attempt (whatever its state: a queued retry for it stands down). */
export async function redeliver(ctx: Ctx, webhookId: string, deliveryId: string) {
  const row = await accessWebhook(ctx, webhookId);
  requireEnabled(row);
  const delivery = await webhooksRepo.findDelivery(ctx.db, deliveryId);
  if (!delivery || delivery.webhookId !== webhookId) throw notFound('Delivery', deliveryId);
  await ctx.db.transaction().execute(async (trx) => {
    const generation = await webhooksRepo.restartDelivery(trx, row.workspaceId, deliveryId, ctx.now());
    if (generation === null) throw notFound('Delivery', deliveryId);
    await webhooksRepo.queueDeliveryJob(trx, row.workspaceId, deliveryId, generation, ctx.now(), newId());
  });
  return presentDelivery((await webhooksRepo.findDelivery(ctx.db, deliveryId)) ?? delivery);
}

/** A `webhook.ping` delivery, to try an endpoint (signed and retried like any other). */
export async function pingWebhook(ctx: Ctx, webhookId: string) {
  const actor = requireActor(ctx);
  const row = await accessWebhook(ctx, webhookId);
  requireEnabled(row);
  const id = newId();
  const eventId = newId();
  const payload = {
    type: 'webhook.ping',
    timestamp: ctx.now().toISOString(),
    data: { eventId, workspaceId: row.workspaceId, webhookId, subject: { type: 'webhook', id: webhookId }, spaceId: null, pageId: null, actorId: actor.userId },
  };
  await ctx.db
    .transaction()
    .execute((trx) => webhooksRepo.insertDelivery(trx, { id, workspaceId: row.workspaceId, webhookId, eventId, eventType: 'webhook.ping', payload }, newId()));
  const delivery = await webhooksRepo.findDelivery(ctx.db, id);
  if (!delivery) throw new Error('a delivery just written is missing');
  return presentDelivery(delivery);
}
