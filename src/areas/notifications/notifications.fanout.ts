import type { Db } from '../../db/index.js';
import { newId } from '../../ids.js';
import type { DomainEvent } from '../events/events.record.js';
import { kindRank, type PreferenceKind } from './notifications.kinds.js';
import { type Candidate, notificationsRepo } from './notifications.repo.js';
import { publishNotifications } from './notifications.stream.js';

/*
 * Turns dispatched events into notifications (issue 16), inside the dispatcher's transaction. Who qualifies, by rule:
 *   mention  — data.mentionedUserIds of page.created, page.updated, comment.created, comment.updated (people newly @mentioned);
 *   reply    — data.threadParticipantIds of comment.created;
 *   assigned — data.assigneeId of task.assigned, and of task.created;
 *   watch    — watchers of the event's page or of its space, for page.* and comment.* events.
 * Someone who qualifies twice for one event gets one notification, of the strongest kind they have not turned off
 * (mention > reply > assigned > watch). The actor, non-members, people who cannot read the space or the page, and
 * kinds turned off are dropped inside the insert's SQL (notificationsRepo.insertCandidates): one statement per batch,
 * not one query per recipient.
 */

const MENTION_EVENTS = new Set(['page.created', 'page.updated', 'comment.created', 'comment.updated']);

const idsIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200) : [];
const idOf = (value: unknown): string[] => (typeof value === 'string' && value.length > 0 && value.length <= 200 ? [value] : []);

/** Who a rule names directly in the event's data. */
function namedRecipients(event: DomainEvent): Array<[string, PreferenceKind]> {
  const named: Array<[string, PreferenceKind]> = [];
  if (MENTION_EVENTS.has(event.type)) for (const id of idsIn(event.data.mentionedUserIds)) named.push([id, 'mention']);
  if (event.type === 'comment.created') for (const id of idsIn(event.data.threadParticipantIds)) named.push([id, 'reply']);
  if (event.type === 'task.assigned' || event.type === 'task.created') for (const id of idOf(event.data.assigneeId)) named.push([id, 'assigned']);
  return named;
}

/** Watchers hear of changes to pages and of comments on them; an edit to a comment is not news to them. */
const watchable = (event: DomainEvent) => (event.type.startsWith('page.') || event.type.startsWith('comment.')) && event.type !== 'comment.updated';

/**
 * Every (event, recipient, kind) a rule names, before access and preferences (the insert keeps the strongest kind that
 * passes them), sorted so that one recipient's kinds for one event sit together.
 */
async function candidatesOf(trx: Db, events: DomainEvent[]): Promise<Candidate[]> {
  const byPair = new Map<string, Candidate>();
  const add = (event: DomainEvent, userId: string, kind: PreferenceKind) => {
    if (userId === event.actorId) return;
    const key = `${event.id}\0${userId}\0${kind}`;
    if (!byPair.has(key)) byPair.set(key, { id: newId(), eventId: event.id, userId, kind });
  };
  const sorted = () =>
    [...byPair.values()].sort((a, b) => a.eventId.localeCompare(b.eventId) || a.userId.localeCompare(b.userId) || kindRank(a.kind) - kindRank(b.kind));
  for (const event of events) for (const [userId, kind] of namedRecipients(event)) add(event, userId, kind);

  // Watchers hear of a run of updates to one page in a batch once: from its last update.
  const lastUpdate = new Map<string, DomainEvent>();
  for (const e of events) if (e.type === 'page.updated' && e.pageId) lastUpdate.set(e.pageId, e);
  const watched = events.filter((e) => watchable(e) && (e.type !== 'page.updated' || !e.pageId || lastUpdate.get(e.pageId) === e));
  if (watched.length === 0) return sorted();
  const spaceOfPage = await notificationsRepo.spacesOfPages(trx, [...new Set(watched.filter((e) => e.pageId && !e.spaceId).map((e) => e.pageId as string))]);
  const spaceOf = (e: DomainEvent) => e.spaceId ?? (e.pageId ? spaceOfPage.get(e.pageId) : undefined) ?? null;
  const watchers = await notificationsRepo.watchersOf(
    trx,
    [...new Set(watched.map((e) => e.workspaceId))],
    [...new Set(watched.flatMap((e) => (e.pageId ? [e.pageId] : [])))],
    [...new Set(watched.flatMap((e) => idOf(spaceOf(e))))],
  );
  const watchersByTarget = new Map<string, string[]>();
  for (const w of watchers) {
    const key = `${w.workspaceId}\0${w.targetType}\0${w.targetId}`;
    watchersByTarget.set(key, [...(watchersByTarget.get(key) ?? []), w.userId]);
  }
  for (const event of watched) {
    const space = spaceOf(event);
    const targets = [...(event.pageId ? [`page\0${event.pageId}`] : []), ...(space ? [`space\0${space}`] : [])];
    for (const target of targets) for (const userId of watchersByTarget.get(`${event.workspaceId}\0${target}`) ?? []) add(event, userId, 'watch');
  }
  return sorted();
}

/**
 * Makes the notifications of a batch of events, in the dispatcher's transaction: each recipient at most once per
 * event (unique user_id, event_id), and only recipients who may read what the event names. Returns the new ids.
 */
export async function fanOutNotifications(trx: Db, events: DomainEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const candidates = await candidatesOf(trx, events);
  if (candidates.length === 0) return [];
  return notificationsRepo.insertCandidates(trx, candidates);
}

/**
 * Called by the dispatcher after its transaction committed, with the events it fanned out: pushes their new
 * notifications to live streams. Cheap, and never throws: a stream that misses one finds it at its next poll.
 */
export async function afterNotificationsCommitted(db: Db, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  try {
    const rows = await db.selectFrom('notifications').select('id').where('eventId', 'in', eventIds).execute();
    await publishNotifications(
      db,
      rows.map((r) => r.id),
    );
  } catch {
    // The streams' fallback poll delivers what this missed.
  }
}
