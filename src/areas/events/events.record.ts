import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import { newId } from '../../ids.js';

/** Every kind of domain event (issue 16). Webhook subscriptions and notification rules name these. */
export const EVENT_TYPES = [
  'page.created',
  'page.updated',
  'page.moved',
  'page.trashed',
  'page.restored',
  'page.published',
  'comment.created',
  'comment.updated',
  'comment.resolved',
  'task.created',
  'task.updated',
  'task.assigned',
  'task.status_changed',
  'goal.progress_changed',
  'member.joined',
  'member.removed',
  'research.completed',
  'import.finished',
  'export.finished',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type EventSubjectType = 'page' | 'comment' | 'task' | 'goal' | 'member' | 'research' | 'import' | 'export';

export interface NewEvent {
  workspaceId: string;
  type: EventType;
  subject: { type: EventSubjectType; id: string };
  /** The space and page the event concerns, when it does: recipients who cannot read them never hear of it. */
  spaceId?: string | null;
  pageId?: string | null;
  /**
   * Small facts for recipients (ids, a title, from/to values; never page content). Conventions the fan-outs read:
   * `mentionedUserIds` (people newly @mentioned by this change), `assigneeId`, `threadParticipantIds`, `title`.
   */
  data?: Record<string, unknown>;
  /** Defaults to the context's actor. */
  actorId?: string | null;
}

/** A stored event, as the fan-outs receive it. */
export interface DomainEvent {
  id: string;
  workspaceId: string;
  type: EventType;
  actorId: string | null;
  subjectType: EventSubjectType;
  subjectId: string;
  spaceId: string | null;
  pageId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * Appends events to the outbox. Call it with the transaction of the change (`db` = the transaction), so an event
 * exists exactly when its change commits; the dispatcher (events.dispatch) fans it out afterwards.
 */
export async function recordEvents(db: Db, ctx: Pick<Ctx, 'actor'>, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('domainEvents')
    .values(
      events.map((e) => ({
        id: newId(),
        workspaceId: e.workspaceId,
        type: e.type,
        actorId: e.actorId === undefined ? (ctx.actor?.userId ?? null) : e.actorId,
        subjectType: e.subject.type,
        subjectId: e.subject.id,
        spaceId: e.spaceId ?? null,
        pageId: e.pageId ?? null,
        data: JSON.stringify(e.data ?? {}),
      })),
    )
    .execute();
}

export const recordEvent = (db: Db, ctx: Pick<Ctx, 'actor'>, event: NewEvent) => recordEvents(db, ctx, [event]);
