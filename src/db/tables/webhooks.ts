import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, UpdatedAt } from '../types.js';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'retrying';

/** An endpoint a workspace admin registered (migration 0034); its secret is AES-256-GCM encrypted. */
export interface WebhookTable {
  id: string;
  workspaceId: string;
  url: string;
  description: string | null;
  /** Event types it receives, or `["*"]` for all. */
  events: Json<string[]>;
  secretEncrypted: string;
  enabled: Generated<boolean>;
  disabledReason: string | null;
  disabledAt: Date | null;
  /** Deliveries that failed for good one after another, since the last success: the endpoint is disabled at a limit. */
  failedDeliveriesInRow: Generated<number>;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** One event sent (or to be sent) to one endpoint, with its attempts. */
export interface WebhookDeliveryTable {
  id: string;
  workspaceId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: Json;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: Generated<number>;
  generation: Generated<number>;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  responseStatus: number | null;
  durationMs: number | null;
  responseExcerpt: string | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface WebhooksTables {
  webhooks: WebhookTable;
  webhookDeliveries: WebhookDeliveryTable;
}
