import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { WebhookDeliveryStatus } from '../../db/tables/webhooks.js';

export const DELIVERY_JOB_KIND = 'webhooks.deliver';

/** A time-ordered id (UUIDv7, like `newId`) made in SQL, for rows an `insert … select` writes in one statement. */
export const sqlNewId = sql<string>`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
  substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid::text`;

const WEBHOOK_COLUMNS = [
  'w.id',
  'w.workspaceId',
  'w.url',
  'w.description',
  'w.events',
  'w.enabled',
  'w.disabledReason',
  'w.disabledAt',
  'w.failedDeliveriesInRow',
  'w.createdBy',
  'w.createdAt',
  'w.updatedAt',
] as const;

const DELIVERY_COLUMNS = [
  'd.id',
  'd.workspaceId',
  'd.webhookId',
  'd.eventId',
  'd.eventType',
  'd.status',
  'd.attempts',
  'd.generation',
  'd.nextAttemptAt',
  'd.lastAttemptAt',
  'd.responseStatus',
  'd.durationMs',
  'd.responseExcerpt',
  'd.lastError',
  'd.deliveredAt',
  'd.createdAt',
] as const;

export type WebhookRow = NonNullable<Awaited<ReturnType<typeof webhooksRepo.find>>>;
export type DeliveryRow = NonNullable<Awaited<ReturnType<typeof webhooksRepo.findDelivery>>>;

export interface NewWebhook {
  id: string;
  workspaceId: string;
  url: string;
  description: string | null;
  events: string[];
  secretEncrypted: string;
  createdBy: string;
}

export interface WebhookChanges {
  url?: string;
  description?: string | null;
  events?: string[];
  enabled?: boolean;
}

/** The outcome of one attempt, as the delivery log keeps it. */
export interface AttemptRecord {
  status: WebhookDeliveryStatus;
  at: Date;
  responseStatus: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
}

/** A delivery job's payload: the delivery, and the generation it was queued for (a redelivery makes a new one). */
const jobPayloadSql = (id: string | ReturnType<typeof sql.ref>, generation: number | ReturnType<typeof sql.ref>) =>
  sql`jsonb_build_object('deliveryId', ${id}::text, 'generation', ${generation}::int)`;

export const webhooksRepo = {
  find(db: Db, id: string) {
    return db.selectFrom('webhooks as w').select(WEBHOOK_COLUMNS).where('w.id', '=', id).executeTakeFirst();
  },

  list(db: Db, workspaceId: string) {
    return db.selectFrom('webhooks as w').select(WEBHOOK_COLUMNS).where('w.workspaceId', '=', workspaceId).orderBy('w.createdAt').orderBy('w.id').execute();
  },

  async insert(db: Db, row: NewWebhook) {
    await db
      .insertInto('webhooks')
      .values({ ...row, events: JSON.stringify(row.events) })
      .execute();
  },

  async update(db: Db, workspaceId: string, id: string, changes: WebhookChanges, now: Date) {
    const { events, enabled, ...rest } = changes;
    await db
      .updateTable('webhooks')
      .set({
        ...rest,
        ...(events ? { events: JSON.stringify(events) } : {}),
        // Turning an endpoint back on starts its failure count afresh.
        ...(enabled === true ? { enabled, disabledReason: null, disabledAt: null, failedDeliveriesInRow: 0 } : {}),
        ...(enabled === false ? { enabled, disabledReason: 'disabled by an admin', disabledAt: now } : {}),
        updatedAt: now,
      })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async setSecret(db: Db, workspaceId: string, id: string, secretEncrypted: string, now: Date) {
    await db.updateTable('webhooks').set({ secretEncrypted, updatedAt: now }).where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  async delete(db: Db, workspaceId: string, id: string) {
    const res = await db.deleteFrom('webhooks').where('workspaceId', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },

  /**
   * One delivery per (enabled endpoint subscribed to its type, event) and a delivery job for each, in one statement:
   * both commit with the dispatcher's transaction or neither does. Events about a page under a restriction are left
   * out (webhooks act for the whole workspace, and a restriction narrows who may know of a page).
   */
  async fanOut(db: Db, eventIds: string[]): Promise<number> {
    if (eventIds.length === 0) return 0;
    const res = await sql`
      with fanned as (
        insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event_type, payload, status, next_attempt_at)
        select ${sqlNewId}, e.workspace_id, w.id, e.id, e.type,
          jsonb_build_object('type', e.type, 'timestamp', to_jsonb(e.created_at), 'data',
            e.data || jsonb_build_object('eventId', e.id, 'workspaceId', e.workspace_id,
              'subject', jsonb_build_object('type', e.subject_type, 'id', e.subject_id),
              'spaceId', e.space_id, 'pageId', e.page_id, 'actorId', e.actor_id)),
          'pending', now()
        from domain_events e
        join webhooks w on w.workspace_id = e.workspace_id and w.enabled
        where e.id in (${sql.join(eventIds)})
          and (w.events @> jsonb_build_array(e.type) or w.events @> '["*"]'::jsonb)
          and (e.page_id is null or not exists (
            select 1 from page_restricted_by prb where prb.page_id = e.page_id and prb.workspace_id = e.workspace_id))
        on conflict (webhook_id, event_id) do nothing
        returning id, workspace_id, next_attempt_at
      )
      insert into jobs (id, workspace_id, kind, payload, run_at, max_attempts)
      select ${sqlNewId}, f.workspace_id, ${DELIVERY_JOB_KIND}, ${jobPayloadSql(sql.ref('f.id'), 0)}, f.next_attempt_at, 3
      from fanned f`.execute(db);
    return Number(res.numAffectedRows ?? 0);
  },

  /** A delivery made here (a ping), and its job. */
  async insertDelivery(
    db: Db,
    row: { id: string; workspaceId: string; webhookId: string; eventId: string; eventType: string; payload: Record<string, unknown> },
    jobId: string,
  ) {
    await db
      .insertInto('webhookDeliveries')
      .values({ ...row, payload: JSON.stringify(row.payload), status: 'pending', nextAttemptAt: new Date() })
      .execute();
    await webhooksRepo.queueDeliveryJob(db, row.workspaceId, row.id, 0, new Date(), jobId);
  },

  async queueDeliveryJob(db: Db, workspaceId: string, deliveryId: string, generation: number, runAt: Date, jobId: string) {
    await sql`insert into jobs (id, workspace_id, kind, payload, run_at, max_attempts)
      values (${jobId}, ${workspaceId}, ${DELIVERY_JOB_KIND}, ${jobPayloadSql(deliveryId, generation)}, ${runAt}, 3)`.execute(db);
  },

  findDelivery(db: Db, id: string) {
    return db.selectFrom('webhookDeliveries as d').select(DELIVERY_COLUMNS).where('d.id', '=', id).executeTakeFirst();
  },

  /** A webhook's deliveries, newest first, after `cursor` (a delivery id: ids are time-ordered). */
  listDeliveries(db: Db, workspaceId: string, webhookId: string, limit: number, cursor?: string) {
    let q = db
      .selectFrom('webhookDeliveries as d')
      .select(DELIVERY_COLUMNS)
      .where('d.workspaceId', '=', workspaceId)
      .where('d.webhookId', '=', webhookId)
      .orderBy('d.id', 'desc')
      .limit(limit + 1);
    if (cursor) q = q.where('d.id', '<', cursor);
    return q.execute();
  },

  /** What a delivery job needs: the delivery, its body, and its endpoint (with the encrypted secret). */
  findForSend(db: Db, deliveryId: string) {
    return db
      .selectFrom('webhookDeliveries as d')
      .innerJoin('webhooks as w', (j) => j.onRef('w.id', '=', 'd.webhookId').onRef('w.workspaceId', '=', 'd.workspaceId'))
      .select([...DELIVERY_COLUMNS, 'd.payload', 'w.url', 'w.enabled', 'w.secretEncrypted'])
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
  },

  /** Writes an attempt's outcome, only if the delivery is still at `generation` (not redelivered meanwhile); false otherwise. */
  async recordAttempt(db: Db, d: { id: string; workspaceId: string; generation: number }, a: AttemptRecord): Promise<boolean> {
    const res = await db
      .updateTable('webhookDeliveries')
      .set((eb) => ({
        status: a.status,
        attempts: eb('attempts', '+', 1),
        lastAttemptAt: a.at,
        responseStatus: a.responseStatus,
        durationMs: a.durationMs,
        responseExcerpt: a.responseExcerpt,
        lastError: a.lastError,
        nextAttemptAt: a.nextAttemptAt,
        ...(a.status === 'delivered' ? { deliveredAt: a.at } : {}),
        updatedAt: a.at,
      }))
      .where('workspaceId', '=', d.workspaceId)
      .where('id', '=', d.id)
      .where('generation', '=', d.generation)
      .where('status', 'in', ['pending', 'retrying'])
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  /** Marks a pending delivery failed without an attempt (its endpoint was disabled or deleted meanwhile). */
  async abandon(db: Db, d: { id: string; workspaceId: string; generation: number }, reason: string, now: Date) {
    await db
      .updateTable('webhookDeliveries')
      .set({ status: 'failed', lastError: reason, nextAttemptAt: null, updatedAt: now })
      .where('workspaceId', '=', d.workspaceId)
      .where('id', '=', d.id)
      .where('generation', '=', d.generation)
      .execute();
  },

  /** Sends a delivery again from its first attempt: a new generation, so a retry still queued for the old one stands down. */
  async restartDelivery(db: Db, workspaceId: string, id: string, now: Date) {
    const row = await db
      .updateTable('webhookDeliveries')
      .set((eb) => ({ status: 'pending', attempts: 0, generation: eb('generation', '+', 1), nextAttemptAt: now, lastError: null, updatedAt: now }))
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .returning(['generation'])
      .executeTakeFirst();
    return row?.generation ?? null;
  },

  /** A success resets the endpoint's run of failed deliveries. */
  async resetFailures(db: Db, workspaceId: string, webhookId: string) {
    await db
      .updateTable('webhooks')
      .set({ failedDeliveriesInRow: 0 })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', webhookId)
      .where('failedDeliveriesInRow', '>', 0)
      .execute();
  },

  /**
   * Counts a delivery that failed for good; at `limit` in a row the endpoint is disabled. True when this call disabled
   * it (once: an endpoint already off is left as it is).
   */
  async countFailedDelivery(db: Db, workspaceId: string, webhookId: string, limit: number, now: Date): Promise<boolean> {
    const row = await sql<{ disabledNow: boolean }>`
      update webhooks set failed_deliveries_in_row = failed_deliveries_in_row + 1,
        enabled = case when enabled and failed_deliveries_in_row + 1 >= ${limit} then false else enabled end,
        disabled_reason = case when enabled and failed_deliveries_in_row + 1 >= ${limit}
          then ${`${limit} deliveries in a row failed`} else disabled_reason end,
        disabled_at = case when enabled and failed_deliveries_in_row + 1 >= ${limit} then ${now} else disabled_at end,
        updated_at = ${now}
      where workspace_id = ${workspaceId} and id = ${webhookId}
      returning (enabled = false and disabled_at = ${now}) as "disabledNow"`.execute(db);
    return row.rows[0]?.disabledNow ?? false;
  },

  /**
   * Deliveries overdue by `graceMs` with no live job (one lost to a crash, or to a job failing for good on a database
   * error): queued again under a new generation.
   */
  async requeueStranded(db: Db, graceMs: number): Promise<number> {
    const res = await sql`
      with stranded as (
        update webhook_deliveries d set generation = generation + 1, updated_at = now()
        where d.status in ('pending', 'retrying') and d.next_attempt_at < now() - ${`${graceMs} milliseconds`}::interval
          and not exists (select 1 from jobs j where j.kind = ${DELIVERY_JOB_KIND} and j.status in ('queued', 'running')
            and j.payload ->> 'deliveryId' = d.id)
        returning d.id, d.workspace_id, d.generation
      )
      insert into jobs (id, workspace_id, kind, payload, run_at, max_attempts)
      select ${sqlNewId}, s.workspace_id, ${DELIVERY_JOB_KIND}, ${jobPayloadSql(sql.ref('s.id'), sql.ref('s.generation'))}, now(), 3
      from stranded s`.execute(db);
    return Number(res.numAffectedRows ?? 0);
  },

  /** Tells the workspace's admins their endpoint was disabled, where the notifications table exists (issue 16, migration 0033). */
  async notifyAdminsOfDisabling(db: Db, workspaceId: string, webhookId: string, title: string, eventId: string) {
    const exists = await sql<{ found: boolean }>`select to_regclass('notifications') is not null as found`.execute(db);
    if (!exists.rows[0]?.found) return 0;
    const res = await sql`
      insert into notifications (id, workspace_id, user_id, kind, event_id, event_type, actor_id, subject_type, subject_id, page_id, space_id, title)
      select ${sqlNewId}, wm.workspace_id, wm.user_id, 'webhook_disabled', ${eventId}, 'webhook.disabled', null, 'webhook', ${webhookId}, null, null, ${title}
      from workspace_members wm where wm.workspace_id = ${workspaceId} and wm.role = 'admin'
      on conflict do nothing`.execute(db);
    return Number(res.numAffectedRows ?? 0);
  },
};
