import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { SyncConnectorTable, SyncSourceTable } from '../../db/tables/local-sync.js';
import { TEXT_TYPES } from '../../sync-rules/content.js';

/** SQL of local sync's connectors, sources, operation ids and deltas. Every query names the workspace. */

const CONNECTOR_COLUMNS = ['id', 'workspaceId', 'userId', 'name', 'platform', 'version', 'lastSeenAt', 'createdAt'] as const;
const SOURCE_COLUMNS = ['id', 'workspaceId', 'name', 'mode', 'connectorId', 'includePatterns', 'excludePatterns', 'pausedAt'] as const;

export type NewConnector = Insertable<SyncConnectorTable>;
export type NewSource = Pick<SyncSourceTable, 'id' | 'workspaceId' | 'name' | 'mode' | 'connectorId' | 'createdBy'> & {
  includePatterns: string[];
  excludePatterns: string[];
  createdAt: Date;
};
export type OperationStatus = 'applied' | 'unchanged' | 'conflict';
export interface OperationRecord {
  operationId: string;
  status: OperationStatus;
  contentHash: string | null;
  conflictId: string | null;
}

/** Sources of a workspace with their connector, live file count, open conflicts and newest event (one query). */
function sourceRows(db: Db, workspaceId: string) {
  return db
    .selectFrom('syncSources as s')
    .leftJoin('syncConnectors as c', (j) => j.onRef('c.id', '=', 's.connectorId').onRef('c.workspaceId', '=', 's.workspaceId'))
    .select([
      's.id',
      's.workspaceId',
      's.name',
      's.mode',
      's.connectorId',
      's.includePatterns',
      's.excludePatterns',
      's.pausedAt',
      's.createdBy',
      's.createdAt',
      's.updatedAt',
      'c.name as cName',
      'c.platform as cPlatform',
      'c.version as cVersion',
      'c.lastSeenAt as cLastSeenAt',
      sql<number>`(select count(*)::int from sync_files f where f.source_id = s.id and f.workspace_id = s.workspace_id and not f.deleted)`.as('fileCount'),
      sql<number>`(select count(*)::int from sync_conflicts k where k.source_id = s.id and k.workspace_id = s.workspace_id and k.status = 'open')`.as(
        'openConflicts',
      ),
      sql<number | null>`(select max(e.seq) from sync_events e where e.source_id = s.id and e.workspace_id = s.workspace_id)`.as('lastSeq'),
    ])
    .where('s.workspaceId', '=', workspaceId);
}
export type SourceListRow = Awaited<ReturnType<ReturnType<typeof sourceRows>['executeTakeFirstOrThrow']>>;

export const localSyncRepo = {
  insertConnector(db: Db, row: NewConnector) {
    return db.insertInto('syncConnectors').values(row).returning(CONNECTOR_COLUMNS).executeTakeFirstOrThrow();
  },

  /** Marks a connector of this user as seen now; undefined when the user has no such connector. */
  touchOwnConnector(db: Db, workspaceId: string, userId: string, connectorId: string, now: Date) {
    return db
      .updateTable('syncConnectors')
      .set({ lastSeenAt: now })
      .where('id', '=', connectorId)
      .where('workspaceId', '=', workspaceId)
      .where('userId', '=', userId)
      .returning(CONNECTOR_COLUMNS)
      .executeTakeFirst();
  },

  findConnector(db: Db, workspaceId: string, connectorId: string) {
    return db.selectFrom('syncConnectors').select(['id', 'userId']).where('id', '=', connectorId).where('workspaceId', '=', workspaceId).executeTakeFirst();
  },

  /** A source's row; with `lock`, locked for the transaction (every write of a source takes it). */
  findSource(db: Db, workspaceId: string, sourceId: string, lock = false) {
    let q = db.selectFrom('syncSources').select(SOURCE_COLUMNS).where('id', '=', sourceId).where('workspaceId', '=', workspaceId);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  },

  sourceRecord(db: Db, workspaceId: string, sourceId: string) {
    return sourceRows(db, workspaceId).where('s.id', '=', sourceId).executeTakeFirstOrThrow();
  },

  listSources(db: Db, workspaceId: string) {
    return sourceRows(db, workspaceId).orderBy('s.createdAt').orderBy('s.id').execute();
  },

  async insertSource(db: Db, s: NewSource) {
    await db
      .insertInto('syncSources')
      .values({
        ...s,
        includePatterns: JSON.stringify(s.includePatterns),
        excludePatterns: JSON.stringify(s.excludePatterns),
        updatedAt: s.createdAt,
      })
      .execute();
  },

  sourceIdByName(db: Db, workspaceId: string, name: string) {
    return db.selectFrom('syncSources').select('id').where('workspaceId', '=', workspaceId).where(sql`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
  },

  async setSourcePaused(db: Db, workspaceId: string, sourceId: string, pausedBy: string | null, now: Date) {
    await db
      .updateTable('syncSources')
      .set({ pausedAt: pausedBy ? now : null, pausedBy, updatedAt: now })
      .where('id', '=', sourceId)
      .where('workspaceId', '=', workspaceId)
      .execute();
  },

  /** Operation ids this source already answered, among `ids`. */
  async operationsSeen(db: Db, workspaceId: string, sourceId: string, ids: string[]): Promise<Map<string, OperationRecord>> {
    const seen = new Map<string, OperationRecord>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1000) {
      const rows = await db
        .selectFrom('syncOperations')
        .select(['operationId', 'status', 'contentHash', 'conflictId'])
        .where('sourceId', '=', sourceId)
        .where('workspaceId', '=', workspaceId)
        .where('operationId', '=', sql<string>`any(${unique.slice(i, i + 1000)})`)
        .execute();
      for (const r of rows) seen.set(r.operationId, r);
    }
    return seen;
  },

  /** The sequence number of the newest event of a source (0 when none). */
  async headSeq(db: Db, workspaceId: string, sourceId: string): Promise<number> {
    const row = await db
      .selectFrom('syncEvents')
      .select((eb) => eb.fn.max('seq').as('head'))
      .where('sourceId', '=', sourceId)
      .where('workspaceId', '=', workspaceId)
      .executeTakeFirst();
    return Number(row?.head ?? 0);
  },

  /**
   * One page of events after `after` (and at most `head`) as JSON built inside the database: one value to parse
   * instead of thousands of fields. With `includeContent`, upserts carry their content, text or Base64 by the
   * content type (the rule of `TEXT_TYPES`).
   */
  async eventPage(
    db: Db,
    q: { workspaceId: string; sourceId: string; after: number; head: number; limit: number; exclude: string | null; includeContent: boolean },
  ) {
    const text = sql`(e.content_type = any(${[...TEXT_TYPES.exact]}) or e.content_type like any(${[
      ...TEXT_TYPES.prefixes.map((p) => `${p}%`),
      ...TEXT_TYPES.suffixes.map((s) => `%${s}`),
    ]}))`;
    const content = q.includeContent
      ? sql`, 'content', case when e.type = 'file.upsert' then case when ${text} then convert_from(b.content, 'UTF8')
            else translate(encode(b.content, 'base64'), E'\n', '') end end`
      : sql``;
    const join = q.includeContent
      ? sql`left join sync_blobs b on b.workspace_id = e.workspace_id and b.hash = e.content_hash and e.type = 'file.upsert'`
      : sql``;
    const { rows } = await sql<{ events: string; more: boolean }>`
      select coalesce(json_agg(json_build_object(
          'cursor', e.seq::text, 'type', e.type, 'sourceId', e.source_id, 'relativePath', e.relative_path,
          'contentHash', e.content_hash, 'contentType', e.content_type, 'size', e.size, 'conflictId', e.conflict_id,
          'localHash', e.local_hash, 'serviceHash', e.service_hash, 'baseHash', e.base_hash, 'resolution', e.resolution,
          'connectorId', e.connector_id, 'userId', e.user_id,
          'createdAt', to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ${content}
        ) order by e.seq) filter (where e.n <= ${q.limit}), '[]'::json)::text as events,
        count(*) > ${q.limit} as more
      from (
        select s.*, row_number() over (order by s.seq) as n from sync_events s
        where s.source_id = ${q.sourceId} and s.workspace_id = ${q.workspaceId} and s.seq > ${q.after} and s.seq <= ${q.head}
          and (${q.exclude}::text is null or s.connector_id is null or s.connector_id <> ${q.exclude})
        order by s.seq limit ${q.limit + 1}
      ) e ${join}`.execute(db);
    return { events: JSON.parse(rows[0].events) as { cursor: string }[], more: rows[0].more };
  },
};
