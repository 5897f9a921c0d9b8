import type { Selectable } from 'kysely';
import type { DomainEventTable } from '../../src/db/tables/events.js';
import type { TestApp } from '../helpers/app.js';

export type StoredEvent = Omit<Selectable<DomainEventTable>, 'data' | 'createdAt'> & { data: Record<string, unknown> };

/** Every event in the outbox, oldest first. */
export async function allEvents(t: TestApp): Promise<StoredEvent[]> {
  const rows = await t.database.db.selectFrom('domainEvents').selectAll().orderBy('createdAt').orderBy('id').execute();
  return rows.map((r) => ({ ...r, data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown> }));
}

/** Runs `action` and answers the events written meanwhile (and its result). */
export async function eventsOf<T>(t: TestApp, action: () => Promise<T>): Promise<{ events: StoredEvent[]; result: T }> {
  const before = new Set((await allEvents(t)).map((e) => e.id));
  const result = await action();
  return { events: (await allEvents(t)).filter((e) => !before.has(e.id)), result };
}

/** A paragraph holding mentions of `ids` (mention nodes carry the user id in attrs.id). */
export function docMentioning(ids: string[], text = 'Hello') {
  return {
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text }, ...ids.map((id) => ({ type: 'mention', attrs: { id, label: `u-${id}` } }))] }],
  };
}

/** Markdown mentioning `id` the way the editor writes a mention. */
export const mentionText = (id: string, label = 'someone') => `[@${label}](mention:${encodeURIComponent(id)})`;
