import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { withinKeyScopeSql } from '../workspaces/member-scope.js';
import { recipientMayReadSql } from './notifications.access.sql.js';
import { DEFAULT_PREFERENCES, type KindPreference, kindRank, PREFERENCE_KINDS, type PreferenceKind } from './notifications.kinds.js';

/** One recipient of one event, before the access and preference filters of the insert. */
export interface Candidate {
  id: string;
  eventId: string;
  userId: string;
  kind: PreferenceKind;
}

/** Whose notifications a read sees: the person's, in one workspace or all, within their API key's workspace. */
export interface Reader {
  userId: string;
  keyWorkspaceId: string | null;
  workspaceId?: string;
}

/** The key of the list's order (unread first, then newest): 1 for unread, 0 for read, and the id. */
export interface ListKey {
  unread: 0 | 1;
  id: string;
}

const CHUNK = 1000;
/** A column as a typed expression. */
const col = (name: string) => sql<string>`${sql.ref(name)}`;
const emailByDefault = PREFERENCE_KINDS.filter((k) => DEFAULT_PREFERENCES[k].email);
const inAppByDefault = PREFERENCE_KINDS.filter((k) => DEFAULT_PREFERENCES[k].inApp);
/** The preference of a kind in SQL: the person's row (`np`) or the default. */
const wantsEmailSql = (kind: Expression<string>) => sql<boolean>`coalesce(np.email, ${kind} in (${sql.join(emailByDefault)}))`;
const wantsInAppSql = (kind: Expression<string>) => sql<boolean>`coalesce(np.in_app, ${kind} in (${sql.join(inAppByDefault)}))`;

/** What a notification names is still readable by its recipient (access may have gone since it was made). */
const stillReadable = recipientMayReadSql({
  userId: col('n.user_id'),
  workspaceId: col('n.workspace_id'),
  spaceId: col('n.space_id'),
  pageId: col('n.page_id'),
});

function visibleTo(reader: Reader): Expression<SqlBool> {
  return sql<SqlBool>`n.user_id = ${reader.userId} and n.in_app
    and ${withinKeyScopeSql(col('n.workspace_id'), reader.keyWorkspaceId)}
    and (${reader.workspaceId ?? null}::text is null or n.workspace_id = ${reader.workspaceId ?? null})
    and ${stillReadable}`;
}

const COLUMNS = [
  'n.id',
  'n.workspaceId',
  'n.userId',
  'n.kind',
  'n.eventType',
  'n.actorId',
  'n.subjectType',
  'n.subjectId',
  'n.pageId',
  'n.spaceId',
  'n.title',
  'n.readAt',
  'n.createdAt',
  'a.name as actorName',
] as const;

const base = (db: Db) => db.selectFrom('notifications as n').leftJoin('users as a', 'a.id', 'n.actorId').select(COLUMNS);

export type NotificationRow = Awaited<ReturnType<typeof notificationsRepo.find>> & {};

export const notificationsRepo = {
  /**
   * Inserts the candidates that pass, in one statement per thousand: the recipient is not the actor, is a member who may
   * read the event's space and page, and wants the kind in the app or by email. A page update collapses into an unread
   * notification of the same kind about the same page's updates (one notice per page, not one per autosave). Of the
   * kinds that pass for one recipient and event, the strongest is kept (`distinct on`, by rank): someone who turned
   * replies off but watches the page hears of a reply as a watcher.
   * Returns the ids inserted (a recipient already notified of the event is skipped).
   */
  async insertCandidates(db: Db, candidates: Candidate[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < candidates.length; i += CHUNK) {
      const rows = candidates.slice(i, i + CHUNK).map((c) => sql`(${c.id}, ${c.eventId}, ${c.userId}, ${c.kind}, ${kindRank(c.kind)}::int)`);
      const kind = col('c.kind');
      const result = await sql<{ id: string }>`
        insert into notifications (id, workspace_id, user_id, kind, event_id, event_type, actor_id, subject_type, subject_id, page_id, space_id, title, in_app, email)
        select distinct on (c.event_id, c.user_id) c.id, e.workspace_id, c.user_id, c.kind, e.id, e.type, e.actor_id, e.subject_type, e.subject_id, e.page_id,
          coalesce(e.space_id, pg.space_id), left(coalesce(e.data->>'title', pg.title, ''), 500), ${wantsInAppSql(kind)}, ${wantsEmailSql(kind)}
        from (values ${sql.join(rows)}) as c (id, event_id, user_id, kind, rank)
        join domain_events e on e.id = c.event_id
        left join pages pg on pg.id = e.page_id and pg.workspace_id = e.workspace_id
        left join notification_preferences np on np.user_id = c.user_id and np.kind = c.kind
        where c.user_id is distinct from e.actor_id
          and (${wantsInAppSql(kind)} or ${wantsEmailSql(kind)})
          and ${recipientMayReadSql({ userId: col('c.user_id'), workspaceId: col('e.workspace_id'), spaceId: col('e.space_id'), pageId: col('e.page_id') })}
          and not (e.type = 'page.updated' and c.kind in ('watch', 'mention') and exists (
            select 1 from notifications u where u.user_id = c.user_id and u.workspace_id = e.workspace_id and u.page_id = e.page_id
              and u.kind = c.kind and u.event_type in ('page.created', 'page.updated') and u.read_at is null))
        order by c.event_id, c.user_id, c.rank
        on conflict (user_id, event_id) do nothing
        returning id`.execute(db);
      ids.push(...result.rows.map((r) => r.id));
    }
    return ids;
  },

  /** Who watches these pages or spaces (of these workspaces). */
  watchersOf(db: Db, workspaceIds: string[], pageIds: string[], spaceIds: string[]) {
    if (workspaceIds.length === 0 || (pageIds.length === 0 && spaceIds.length === 0)) return Promise.resolve([]);
    return db
      .selectFrom('watches')
      .select(['workspaceId', 'userId', 'targetType', 'targetId'])
      .where('workspaceId', 'in', workspaceIds)
      .where((eb) =>
        eb.or([
          ...(pageIds.length ? [eb.and([eb('targetType', '=', 'page'), eb('targetId', 'in', pageIds)])] : []),
          ...(spaceIds.length ? [eb.and([eb('targetType', '=', 'space'), eb('targetId', 'in', spaceIds)])] : []),
        ]),
      )
      .execute();
  },

  /** The space of each page (for events that name a page but no space). */
  async spacesOfPages(db: Db, pageIds: string[]): Promise<Map<string, string>> {
    if (pageIds.length === 0) return new Map();
    const rows = await db.selectFrom('pages').select(['id', 'spaceId']).where('id', 'in', pageIds).execute();
    return new Map(rows.map((r) => [r.id, r.spaceId]));
  },

  /** A page of the reader's notifications, unread first and then newest, after `after`. */
  list(db: Db, reader: Reader, filter: { unreadOnly: boolean; after: ListKey | null }, limit: number) {
    const { after } = filter;
    return base(db)
      .select(sql<number>`(n.read_at is null)::int`.as('unread'))
      .where(visibleTo(reader))
      .$if(filter.unreadOnly, (q) => q.where('n.readAt', 'is', null))
      .$if(after !== null, (q) =>
        q.where(
          sql<SqlBool>`((n.read_at is null)::int < ${after?.unread ?? 0} or ((n.read_at is null)::int = ${after?.unread ?? 0} and n.id < ${after?.id ?? ''}))`,
        ),
      )
      .orderBy(sql`(n.read_at is null)`, 'desc')
      .orderBy('n.id', 'desc')
      .limit(limit)
      .execute();
  },

  async unreadCount(db: Db, reader: Reader): Promise<number> {
    const row = await db
      .selectFrom('notifications as n')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where(visibleTo(reader))
      .where('n.readAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /** One of the reader's notifications, if they may still see it. */
  find(db: Db, reader: Reader, id: string) {
    return base(db).where('n.id', '=', id).where(visibleTo(reader)).executeTakeFirst();
  },

  /** New notifications by id, for the live streams (each carries its recipient). */
  byIds(db: Db, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return base(db).where('n.id', 'in', ids).where('n.inApp', '=', true).execute();
  },

  /** The reader's notifications made since `since` (the streams' fallback poll). */
  madeSince(db: Db, reader: Reader, since: Date, limit: number) {
    return base(db).where(visibleTo(reader)).where('n.createdAt', '>=', since).orderBy('n.id').limit(limit).execute();
  },

  /** The reader's notifications after `afterId` in time (ids are time-ordered): what a reconnecting stream missed. */
  madeAfter(db: Db, reader: Reader, afterId: string, limit: number) {
    return base(db).where(visibleTo(reader)).where('n.id', '>', afterId).orderBy('n.id').limit(limit).execute();
  },

  async markRead(db: Db, reader: Reader, id: string, now: Date): Promise<void> {
    await db.updateTable('notifications as n').set({ readAt: now }).where('n.id', '=', id).where('n.readAt', 'is', null).where(visibleTo(reader)).execute();
  },

  async markAllRead(db: Db, reader: Reader, now: Date): Promise<number> {
    const res = await db.updateTable('notifications as n').set({ readAt: now }).where('n.readAt', 'is', null).where(visibleTo(reader)).executeTakeFirst();
    return Number(res.numUpdatedRows);
  },

  async preferences(db: Db, userId: string): Promise<Record<PreferenceKind, KindPreference>> {
    const rows = await db.selectFrom('notificationPreferences').select(['kind', 'inApp', 'email']).where('userId', '=', userId).execute();
    const prefs = structuredClone(DEFAULT_PREFERENCES);
    for (const row of rows) if (row.kind in prefs) prefs[row.kind as PreferenceKind] = { inApp: row.inApp, email: row.email };
    return prefs;
  },

  async setPreferences(db: Db, userId: string, prefs: Partial<Record<PreferenceKind, KindPreference>>, now: Date): Promise<void> {
    const rows = Object.entries(prefs).map(([kind, p]) => ({ userId, kind, inApp: p.inApp, email: p.email, updatedAt: now }));
    if (rows.length === 0) return;
    await db
      .insertInto('notificationPreferences')
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns(['userId', 'kind'])
          .doUpdateSet((eb) => ({ inApp: eb.ref('excluded.inApp'), email: eb.ref('excluded.email'), updatedAt: eb.ref('excluded.updatedAt') })),
      )
      .execute();
  },

  async isWatching(db: Db, userId: string, targetType: 'page' | 'space', targetId: string): Promise<boolean> {
    const row = await db
      .selectFrom('watches')
      .select('userId')
      .where('userId', '=', userId)
      .where('targetType', '=', targetType)
      .where('targetId', '=', targetId)
      .executeTakeFirst();
    return !!row;
  },

  async watch(db: Db, row: { workspaceId: string; userId: string; targetType: 'page' | 'space'; targetId: string }): Promise<void> {
    await db
      .insertInto('watches')
      .values(row)
      .onConflict((oc) => oc.columns(['userId', 'targetType', 'targetId']).doNothing())
      .execute();
  },

  async unwatch(db: Db, workspaceId: string, userId: string, targetType: 'page' | 'space', targetId: string): Promise<void> {
    await db
      .deleteFrom('watches')
      .where('workspaceId', '=', workspaceId)
      .where('userId', '=', userId)
      .where('targetType', '=', targetType)
      .where('targetId', '=', targetId)
      .execute();
  },

  spaceWorkspace(db: Db, spaceId: string) {
    return db.selectFrom('spaces').select(['id', 'workspaceId']).where('id', '=', spaceId).executeTakeFirst();
  },

  /**
   * Claims what the email digest should mail: unread, not yet mailed, wanted by email when made and still now, and still
   * readable. Stamping `emailed_at` in the claim (skipping rows another run holds) makes two digests never mail one
   * notification twice; `releaseDigest` gives back what could not be sent.
   */
  async claimDigest(db: Db, now: Date, limit: number) {
    const kind = col('n.kind');
    const result = await sql<{ id: string }>`
      update notifications set emailed_at = ${now}
      where id in (
        select n.id from notifications n
        left join notification_preferences np on np.user_id = n.user_id and np.kind = n.kind
        where n.email and n.emailed_at is null and n.read_at is null and ${wantsEmailSql(kind)} and ${stillReadable}
        order by n.user_id, n.id
        limit ${limit}
        for update of n skip locked)
      returning id`.execute(db);
    const ids = result.rows.map((r) => r.id);
    if (ids.length === 0) return [];
    return base(db)
      .innerJoin('users as r', 'r.id', 'n.userId')
      .innerJoin('workspaces as w', 'w.id', 'n.workspaceId')
      .leftJoin('spaces as s', (j) => j.onRef('s.id', '=', 'n.spaceId').onRef('s.workspaceId', '=', 'n.workspaceId'))
      .select(['r.email as recipientEmail', 'r.name as recipientName', 'w.name as workspaceName', 'w.hostname as workspaceHostname', 's.slug as spaceSlug'])
      .where('n.id', 'in', ids)
      .orderBy('n.userId')
      .orderBy('n.id')
      .execute();
  },

  async releaseDigest(db: Db, ids: string[]): Promise<void> {
    if (ids.length) await db.updateTable('notifications').set({ emailedAt: null }).where('id', 'in', ids).execute();
  },
};
