import type { Db } from '../../db/index.js';
import type { DomainEvent } from '../events/events.record.js';
import { webhooksRepo } from './webhooks.repo.js';

/**
 * Turns dispatched events into webhook deliveries (issue 16), inside the dispatcher's transaction: one delivery per
 * subscribed, enabled endpoint of the event's workspace, and its delivery job, written in one statement. Events about a
 * page under a restriction are not delivered; events in private spaces are (an admin registered the endpoint, and an
 * admin reads every space). Returns how many deliveries were made.
 */
export async function fanOutWebhooks(trx: Db, events: DomainEvent[]): Promise<number> {
  return webhooksRepo.fanOut(
    trx,
    events.map((e) => e.id),
  );
}

/**
 * Called by the dispatcher after its transaction committed. Nothing to do: the delivery jobs were written in that
 * transaction, so workers pick them up at their next poll, and the `webhooks.sweep` job re-queues anything stranded.
 * Kept so the dispatcher's contract stays the same should deliveries ever want a nudge.
 */
export async function afterWebhooksCommitted(_db: Db, _eventIds: string[]): Promise<void> {}
