import { z } from 'zod';
import { envelope, Id, Limit } from '../../schema.js';
import { EVENT_TYPES } from '../events/events.record.js';

export const WebhookEventType = z.enum(EVENT_TYPES);
/**
 * One array of known types or `"*"` (not a union of the two forms: a union's error says only "Invalid input", where an
 * unknown type must be named along with the allowed ones, which the validator puts in `details`).
 */
export const WebhookEvents = z
  .array(z.enum([...EVENT_TYPES, '*']))
  .min(1)
  .max(EVENT_TYPES.length)
  .refine((events) => events.length === 1 || !events.includes('*'), '"*" (every event type) stands alone: send ["*"] or a list of types')
  .describe('The event types to receive (see docs/webhooks.md), or ["*"] for every type');

const WebhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .describe('An http(s) URL with no user name or password in it; a public address unless the service allows private ones');
const Description = z.string().trim().max(500).nullable().describe('What the endpoint is for');

export const Webhook = z.object({
  id: z.string(),
  workspaceId: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe('Why it is off: an admin turned it off, or its deliveries kept failing'),
  disabledAt: z.string().nullable(),
  failedDeliveriesInRow: z.number().describe('Deliveries that failed for good since the last success; at 3 the endpoint is disabled'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const DeliveryStatus = z.enum(['pending', 'delivered', 'failed', 'retrying']);

export const WebhookDelivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  eventId: z.string().describe('Sent as the `webhook-id` header, the same on every retry: receivers dedupe on it'),
  eventType: z.string(),
  status: DeliveryStatus,
  attempts: z.number(),
  responseStatus: z.number().nullable().describe('The status of the last answer; null when none came'),
  durationMs: z.number().nullable(),
  responseExcerpt: z.string().nullable().describe('The start of the last answer (at most 1 KiB, secrets masked)'),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});

export const WebhookParams = z.object({ webhookId: Id });
export const DeliveryParams = WebhookParams.extend({ deliveryId: Id });
export const WebhookListQuery = z.object({ workspaceId: Id });

export const WebhookCreateBody = z.object({
  workspaceId: Id,
  url: WebhookUrl,
  events: WebhookEvents,
  description: Description.optional(),
});

export const WebhookUpdateBody = z.object({
  url: WebhookUrl.optional(),
  events: WebhookEvents.optional(),
  description: Description.optional(),
  enabled: z.boolean().optional().describe('false stops deliveries; true turns the endpoint back on and clears its failure count'),
});

export const DeliveryListQuery = z.object({
  limit: Limit(50),
  cursor: Id.optional().describe('`meta.nextCursor` of the previous page'),
});

export const WebhookResult = envelope(Webhook);
export const WebhookListResult = envelope(z.array(Webhook));
export const WebhookWithSecret = z.object({
  webhook: Webhook,
  secret: z.string().describe('whsec_… — shown only now: verify signatures with it (Standard Webhooks)'),
});
export const WebhookWithSecretResult = envelope(WebhookWithSecret);
export const DeliveryResult = envelope(WebhookDelivery);
export const DeliveryListResult = z.object({
  data: z.array(WebhookDelivery),
  meta: z.object({ limit: z.number(), hasMore: z.boolean(), nextCursor: z.string().nullable() }),
});
