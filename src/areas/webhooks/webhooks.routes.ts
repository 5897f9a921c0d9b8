import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { Deleted } from '../../schema.js';
import {
  DeliveryListQuery,
  DeliveryListResult,
  DeliveryParams,
  DeliveryResult,
  WebhookCreateBody,
  WebhookListQuery,
  WebhookListResult,
  WebhookParams,
  WebhookResult,
  WebhookUpdateBody,
  WebhookWithSecretResult,
} from './webhooks.schema.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  redeliver,
  rotateWebhookSecret,
  updateWebhook,
} from './webhooks.service.js';

export const webhooksRoutes: AreaRoutes = (app, deps) => {
  const tags = ['webhooks'];
  const security = BEARER;
  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        security,
        summary: 'Register an endpoint for signed event deliveries (workspace admin); the secret is answered only here',
        body: WebhookCreateBody,
        response: { 201: WebhookWithSecretResult },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await createWebhook(ctxOf(req, deps), req.body) }),
  );
  app.get(
    '/webhooks',
    { schema: { tags, security, summary: 'The workspace’s webhooks (workspace admin)', querystring: WebhookListQuery, response: { 200: WebhookListResult } } },
    async (req) => ({ data: await listWebhooks(ctxOf(req, deps), req.query) }),
  );
  app.get(
    '/webhooks/:webhookId',
    { schema: { tags, security, summary: 'A webhook (workspace admin)', params: WebhookParams, response: { 200: WebhookResult } } },
    async (req) => ({ data: await getWebhook(ctxOf(req, deps), req.params.webhookId) }),
  );
  app.patch(
    '/webhooks/:webhookId',
    {
      schema: {
        tags,
        security,
        summary: 'Change a webhook’s URL, events or description, or turn it off and on (workspace admin)',
        params: WebhookParams,
        body: WebhookUpdateBody,
        response: { 200: WebhookResult },
      },
    },
    async (req) => ({ data: await updateWebhook(ctxOf(req, deps), req.params.webhookId, req.body) }),
  );
  app.delete(
    '/webhooks/:webhookId',
    { schema: { tags, security, summary: 'Delete a webhook and its delivery log (workspace admin)', params: WebhookParams, response: { 200: Deleted } } },
    async (req) => ({ data: await deleteWebhook(ctxOf(req, deps), req.params.webhookId) }),
  );
  app.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        tags,
        security,
        summary: 'Replace the signing secret (the old one stops at once); the new one is answered only here',
        params: WebhookParams,
        response: { 200: WebhookWithSecretResult },
      },
    },
    async (req) => ({ data: await rotateWebhookSecret(ctxOf(req, deps), req.params.webhookId) }),
  );
  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        tags,
        security,
        summary: 'The delivery log, newest first (workspace admin)',
        params: WebhookParams,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryListResult },
      },
    },
    async (req) => listDeliveries(ctxOf(req, deps), req.params.webhookId, req.query),
  );
  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        security,
        summary: 'Send a delivery again, from its first attempt (workspace admin)',
        params: DeliveryParams,
        response: { 202: DeliveryResult },
      },
    },
    async (req, reply) => reply.status(202).send({ data: await redeliver(ctxOf(req, deps), req.params.webhookId, req.params.deliveryId) }),
  );
  app.post(
    '/webhooks/:webhookId/ping',
    {
      schema: {
        tags,
        security,
        summary: 'Send a signed `webhook.ping` test delivery (workspace admin)',
        params: WebhookParams,
        response: { 202: DeliveryResult },
      },
    },
    async (req, reply) => reply.status(202).send({ data: await pingWebhook(ctxOf(req, deps), req.params.webhookId) }),
  );
};
