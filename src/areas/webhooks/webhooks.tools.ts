import { DELETE, defineTool, listOf, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeliveryListQuery, WebhookCreateBody, WebhookListQuery, WebhookParams, WebhookUpdateBody } from './webhooks.schema.js';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, updateWebhook } from './webhooks.service.js';

const category = 'webhook';

export const webhookTools = [
  defineTool({
    name: 'webhook_create',
    title: 'Register a webhook',
    category,
    description:
      'Register an http(s) endpoint that receives signed (Standard Webhooks) POSTs for the given event types, or ["*"] for all (workspace admin). Returns `{ webhook, secret }`: the `whsec_…` secret is shown only here.',
    input: WebhookCreateBody,
    annotations: WRITE,
    handler: (ctx, a) => createWebhook(ctx, a),
  }),
  defineTool({
    name: 'webhook_list',
    title: 'List webhooks',
    category,
    description: 'The workspace’s webhooks: url, events, enabled, and why one was disabled (workspace admin). Secrets are never listed.',
    input: WebhookListQuery,
    annotations: READ,
    handler: async (ctx, a) => listOf(await listWebhooks(ctx, a)),
  }),
  defineTool({
    name: 'webhook_update',
    title: 'Change a webhook',
    category,
    description: 'Change a webhook’s url, events or description, or set `enabled` (true also clears its failure count) (workspace admin). Returns the webhook.',
    input: WebhookParams.extend(WebhookUpdateBody.shape),
    annotations: UPDATE,
    handler: (ctx, { webhookId, ...body }) => updateWebhook(ctx, webhookId, body),
  }),
  defineTool({
    name: 'webhook_delete',
    title: 'Delete a webhook',
    category,
    description: 'Delete a webhook and its delivery log (workspace admin). Returns `{ id, deleted: true }`.',
    input: WebhookParams,
    annotations: DELETE,
    handler: (ctx, a) => deleteWebhook(ctx, a.webhookId),
  }),
  defineTool({
    name: 'webhook_deliveries',
    title: 'A webhook’s delivery log',
    category,
    description:
      'Recent deliveries of a webhook, newest first: event type, status (pending, delivered, retrying, failed), attempts, last response code and excerpt, next attempt. Page with `cursor` = `meta.nextCursor`.',
    input: WebhookParams.extend(DeliveryListQuery.shape),
    annotations: READ,
    handler: (ctx, { webhookId, ...query }) => listDeliveries(ctx, webhookId, query),
  }),
];
