import type { Db } from '../../db/index.js';
import type { DomainEvent } from '../events/events.record.js';

/**
 * Turns dispatched events into notifications (issue 16), inside the dispatcher's transaction: each recipient at most
 * once per event, and only recipients who may read what the event names. Built by the notifications area.
 */
export async function fanOutNotifications(_trx: Db, _events: DomainEvent[]): Promise<void> {}
