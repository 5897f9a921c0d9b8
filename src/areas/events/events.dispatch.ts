import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DomainEventTable } from '../../db/tables/events.js';
import { afterNotificationsCommitted, fanOutNotifications } from '../notifications/notifications.fanout.js';
import { afterWebhooksCommitted, fanOutWebhooks } from '../webhooks/webhooks.fanout.js';
import type { DomainEvent, EventSubjectType, EventType } from './events.record.js';
import { afterPageChangesCommitted } from './page-changes.js';

/** Events claimed by one dispatcher transaction. */
export const DISPATCH_BATCH = 200;

interface Logger {
  error(obj: object, msg?: string): void;
}

/** A claimed row as the raw query answers it (`data` may come back as text). */
type PendingRow = Omit<Selectable<DomainEventTable>, 'dispatchedAt' | 'data'> & { data: unknown };

const asEvent = (r: PendingRow): DomainEvent => ({
  ...r,
  type: r.type as EventType,
  subjectType: r.subjectType as EventSubjectType,
  data: (typeof r.data === 'string' ? JSON.parse(r.data) : (r.data ?? {})) as Record<string, unknown>,
  createdAt: new Date(r.createdAt),
});

/**
 * Locks up to `limit` pending events, oldest first, skipping those another dispatcher holds: each event is in at most
 * one open dispatcher transaction, and once stamped it is never claimed again.
 */
async function claimPending(trx: Db, limit: number, onlyIds?: string[]): Promise<DomainEvent[]> {
  const only = onlyIds ? sql`and id in (${sql.join(onlyIds)})` : sql``;
  const rows = await sql<PendingRow>`
    select id, workspace_id as "workspaceId", type, actor_id as "actorId", subject_type as "subjectType", subject_id as "subjectId",
      space_id as "spaceId", page_id as "pageId", data, created_at as "createdAt"
    from domain_events
    where dispatched_at is null ${only}
    order by created_at, id
    limit ${limit}
    for update skip locked`.execute(trx);
  return rows.rows.map(asEvent);
}

/** One transaction: claim, fan out to notifications and webhooks, stamp. Returns the events it dispatched. */
async function dispatchInTransaction(db: Db, limit: number, onlyIds?: string[], claimed?: (ids: string[]) => void): Promise<DomainEvent[]> {
  return db.transaction().execute(async (trx) => {
    const events = await claimPending(trx, limit, onlyIds);
    if (events.length === 0) return events;
    claimed?.(events.map((e) => e.id));
    await fanOutNotifications(trx, events);
    await fanOutWebhooks(trx, events);
    await trx
      .updateTable('domainEvents')
      .set({ dispatchedAt: sql<Date>`now()` })
      .where(
        'id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    return events;
  });
}

/** The after-commit hooks: cheap, and never failing the dispatch (what they miss, the periodic fallbacks pick up). */
async function afterCommit(db: Db, eventIds: string[], log?: Logger) {
  for (const [name, hook] of [
    ['notifications', afterNotificationsCommitted],
    ['webhooks', afterWebhooksCommitted],
    ['page changes', afterPageChangesCommitted],
  ] as const) {
    try {
      await hook(db, eventIds);
    } catch (err) {
      log?.error({ err, hook: name }, 'an after-dispatch hook failed');
    }
  }
}

export interface DispatchOptions {
  log?: Logger;
  /** Stop after this many batches (a job hands the rest to the next run). */
  maxBatches?: number;
  batchSize?: number;
  /** Observes the ids each transaction claims (tests: no event is claimed twice). */
  onClaimed?: (ids: string[]) => void;
}

/**
 * Fans out pending events, a batch per transaction, until none is left (or `maxBatches`). A batch whose fan-out fails
 * is retried one event at a time, so one bad event neither blocks the others nor is skipped: it stays pending (and
 * is retried by the next run) while the rest go out. Returns how many events were dispatched and how many failed.
 */
export async function dispatchEvents(db: Db, options: DispatchOptions = {}): Promise<{ dispatched: number; failed: number }> {
  const { log, maxBatches = 50, batchSize = DISPATCH_BATCH, onClaimed } = options;
  let dispatched = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    let events: DomainEvent[];
    try {
      events = await dispatchInTransaction(db, batchSize, undefined, onClaimed);
    } catch (err) {
      log?.error({ err }, 'event dispatch failed for a batch; retrying its events one by one');
      const single = await dispatchOneByOne(db, batchSize, options);
      // The next run goes on: a bad event at the head of the queue costs each run one fallback, not fifty.
      return { dispatched: dispatched + single.dispatched, failed: single.failed };
    }
    if (events.length === 0) break;
    dispatched += events.length;
    await afterCommit(
      db,
      events.map((e) => e.id),
      log,
    );
    if (events.length < batchSize) break;
  }
  return { dispatched, failed: 0 };
}

/** The fallback after a failed batch: the pending events it could have held, each in its own transaction. */
async function dispatchOneByOne(db: Db, limit: number, options: DispatchOptions) {
  const pending = await db.selectFrom('domainEvents').select('id').where('dispatchedAt', 'is', null).orderBy('createdAt').orderBy('id').limit(limit).execute();
  let dispatched = 0;
  let failed = 0;
  for (const { id } of pending) {
    try {
      const done = await dispatchInTransaction(db, 1, [id], options.onClaimed);
      if (done.length) {
        dispatched++;
        await afterCommit(db, [id], options.log);
      }
    } catch (err) {
      failed++;
      options.log?.error({ err, eventId: id }, 'event fan-out failed; the event stays pending');
    }
  }
  return { dispatched, failed };
}
