import type { Db } from '../../db/index.js';
import type { DomainEvent } from '../events/events.record.js';

/**
 * Turns dispatched events into notifications (issue 16), inside the dispatcher's transaction: each recipient at most
 * once per event, and only recipients who may read what the event names. Built by the notifications area.
 */
export async function fanOutNotifications(_trx: Db, _events: DomainEvent[]): Promise<void> {}

/** Called by the dispatcher after its transaction committed, with the events it fanned out: push the new notifications to live streams. */
export async function afterNotificationsCommitted(_db: Db, _eventIds: string[]): Promise<void> {}
