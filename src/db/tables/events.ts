import type { CreatedAt, Json } from '../types.js';

/** One domain event (migration 0032): written with the change, fanned out once by the dispatcher. */
export interface DomainEventTable {
  id: string;
  workspaceId: string;
  type: string;
  actorId: string | null;
  subjectType: string;
  subjectId: string;
  /** The space and page the event is about, when it is about one: recipients are filtered by access to them. */
  spaceId: string | null;
  pageId: string | null;
  data: Json;
  createdAt: CreatedAt;
  dispatchedAt: Date | null;
}

export interface EventsTables {
  domainEvents: DomainEventTable;
}
