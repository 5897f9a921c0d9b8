import { DELETE, defineTool, ItemList, listOf, READ, UPDATE, WRITE } from '../../mcp/tool.js';
import { DeletedRecord } from '../../schema.js';
import {
  DeliveryListQuery,
  DeliveryListResult,
  Webhook,
  WebhookCreateBody,
  WebhookListQuery,
  WebhookParams,
  WebhookUpdateBody,
  WebhookWithSecret,
} from './webhooks.schema.js';
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
    output: WebhookWithSecret,
    annotations: WRITE,
    handler: (ctx, a) => createWebhook(ctx, a),
  }),
  defineTool({
    name: 'webhook_list',
    title: 'List webhooks',
    category,
    description: 'The workspace’s webhooks: url, events, enabled, and why one was disabled (workspace admin). Secrets are never listed.',
    input: WebhookListQuery,
    output: ItemList(Webhook),
    annotations: READ,
    handler: async (ctx, a) => listOf(await listWebhooks(ctx, a)),
  }),
  defineTool({
    name: 'webhook_update',
    title: 'Change a webhook',
    category,
    description: 'Change a webhook’s url, events or description, or set `enabled` (true also clears its failure count) (workspace admin). Returns the webhook.',
    input: WebhookParams.extend(WebhookUpdateBody.shape),
    output: Webhook,
    annotations: UPDATE,
    handler: (ctx, { webhookId, ...body }) => updateWebhook(ctx, webhookId, body),
  }),
  defineTool({
    name: 'webhook_delete',
    title: 'Delete a webhook',
    category,
    description: 'Delete a webhook and its delivery log (workspace admin). Returns `{ id, deleted: true }`.',
    input: WebhookParams,
    output: DeletedRecord,
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
    output: DeliveryListResult,
    annotations: READ,
    handler: (ctx, { webhookId, ...query }) => listDeliveries(ctx, webhookId, query),
  }),
];
