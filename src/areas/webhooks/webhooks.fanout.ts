import type { Db } from '../../db/index.js';
import type { DomainEvent } from '../events/events.record.js';

/**
 * Turns dispatched events into webhook deliveries (issue 16), inside the dispatcher's transaction: one delivery per
 * subscribed endpoint and event. Built by the webhooks area.
 */
export async function fanOutWebhooks(_trx: Db, _events: DomainEvent[]): Promise<void> {}

/** Called by the dispatcher after its transaction committed, with the events it fanned out: start their deliveries (e.g. enqueue jobs). */
export async function afterWebhooksCommitted(_db: Db, _eventIds: string[]): Promise<void> {}
