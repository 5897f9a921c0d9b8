import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { SyncContentType, SyncEventType, SyncOrigin, SyncResolution } from '../../db/tables/local-sync.js';
import { newId } from '../../ids.js';

/** The current state of a path as the writer tracks it through a batch. */
export interface PathState {
  /** Whether a sync_files row exists (live or tombstone). */
  exists: boolean;
  contentHash: string | null;
  contentType: SyncContentType;
  size: number;
  deleted: boolean;
  version: number;
  updatedBy: string | null;
  updatedByConnector: string | null;
  updatedAt: Date;
  /** The open conflict on the path, if any. */
  conflict: OpenConflict | null;
}

export interface OpenConflict {
  id: string;
  localHash: string | null;
  localContentType: SyncContentType;
  serviceHash: string | null;
  serviceContentType: SyncContentType;
  baseHash: string | null;
}

/** The hash of the live file of a path (null when absent or deleted). */
export const liveHash = (s: PathState | undefined): string | null => (s && !s.deleted ? s.contentHash : null);

export interface Content {
  hash: string | null;
  contentType: SyncContentType;
  bytes: Buffer | null;
}

export interface Who {
  userId: string;
  connectorId: string | null;
}

type EventRow = {
  type: SyncEventType;
  relativePath: string | null;
  contentHash?: string | null;
  contentType?: SyncContentType | null;
  size?: number | null;
  conflictId?: string | null;
  localHash?: string | null;
  serviceHash?: string | null;
  baseHash?: string | null;
  resolution?: SyncResolution | null;
};

/**
 * Collects the writes of one transaction on one source (a push batch, an update, a resolution) in order, then
 * flushes them in a few multi-row statements: blobs (content-addressed, stored once per hash), versions, the
 * current file rows, conflicts, events (their identity column gives the total order, in insertion order).
 * The caller holds the source's row lock, so nothing else writes this source meanwhile.
 */
export class SourceWriter {
  readonly state = new Map<string, PathState>();
  private blobs = new Map<string, Buffer>();
  private versions: {
    relativePath: string;
    contentHash: string | null;
    contentType: SyncContentType;
    size: number;
    deleted: boolean;
    origin: SyncOrigin;
    conflictId: string | null;
  }[] = [];
  private dirtyFiles = new Set<string>();
  private newConflicts = new Map<string, string>(); // conflictId → path
  private changedConflicts = new Map<string, string>();
  private events: EventRow[] = [];

  constructor(
    private readonly db: Db,
    readonly workspaceId: string,
    readonly sourceId: string,
    private readonly who: Who,
    private readonly now: Date,
  ) {}

  /** Loads the file and open-conflict state of these paths (once each). */
  async load(paths: Iterable<string>): Promise<void> {
    const wanted = [...new Set(paths)].filter((p) => !this.state.has(p));
    if (!wanted.length) return;
    for (let i = 0; i < wanted.length; i += 1000) {
      const chunk = wanted.slice(i, i + 1000);
      const [files, conflicts] = await Promise.all([
        this.db
          .selectFrom('syncFiles')
          .selectAll()
          .where('sourceId', '=', this.sourceId)
          .where('workspaceId', '=', this.workspaceId)
          .where('relativePath', 'in', chunk)
          .execute(),
        this.db
          .selectFrom('syncConflicts')
          .select(['id', 'relativePath', 'localHash', 'localContentType', 'serviceHash', 'serviceContentType', 'baseHash'])
          .where('sourceId', '=', this.sourceId)
          .where('workspaceId', '=', this.workspaceId)
          .where('status', '=', 'open')
          .where('relativePath', 'in', chunk)
          .execute(),
      ]);
      for (const p of chunk)
        this.state.set(p, {
          exists: false,
          contentHash: null,
          contentType: 'text',
          size: 0,
          deleted: true,
          version: 0,
          updatedBy: null,
          updatedByConnector: null,
          updatedAt: this.now,
          conflict: null,
        });
      for (const f of files) {
        const s = this.state.get(f.relativePath) as PathState;
        Object.assign(s, {
          exists: true,
          contentHash: f.contentHash,
          contentType: f.contentType,
          size: f.size,
          deleted: f.deleted,
          version: f.version,
          updatedBy: f.updatedBy,
          updatedByConnector: f.updatedByConnector,
          updatedAt: f.updatedAt,
        });
      }
      for (const c of conflicts) {
        const s = this.state.get(c.relativePath) as PathState;
        s.conflict = { ...c };
      }
    }
  }

  get(path: string): PathState {
    const s = this.state.get(path);
    if (!s) throw new Error(`path not loaded: ${path}`);
    return s;
  }

  /** Keeps bytes for flushing (once per hash). */
  keepBlob(content: Content) {
    if (content.hash && content.bytes && !this.blobs.has(content.hash)) this.blobs.set(content.hash, content.bytes);
  }

  /** A new version of a path (an upsert, or a delete when `content.hash` is null) with its file.* event. */
  writeVersion(path: string, content: Content, origin: SyncOrigin, conflictId: string | null = null) {
    const s = this.get(path);
    const deleted = content.hash === null;
    const size = deleted ? 0 : (content.bytes?.length ?? 0);
    this.keepBlob(content);
    Object.assign(s, {
      exists: true,
      contentHash: content.hash,
      contentType: content.contentType,
      size,
      deleted,
      version: s.version + 1,
      updatedBy: this.who.userId,
      updatedByConnector: this.who.connectorId,
      updatedAt: this.now,
    });
    this.dirtyFiles.add(path);
    this.versions.push({ relativePath: path, contentHash: content.hash, contentType: content.contentType, size, deleted, origin, conflictId });
    this.events.push(
      deleted
        ? { type: 'file.delete', relativePath: path, contentType: content.contentType, size: 0, conflictId }
        : { type: 'file.upsert', relativePath: path, contentHash: content.hash, contentType: content.contentType, size, conflictId },
    );
  }

  /**
   * Opens a conflict on a path (both sides and the base are kept; nothing is applied), or, when one is open
   * already, replaces the side that wrote again. Returns the conflict id.
   */
  conflict(path: string, origin: 'push' | 'update', local: Content, service: Content, baseHash: string | null): string {
    const s = this.get(path);
    this.keepBlob(local);
    this.keepBlob(service);
    if (s.conflict) {
      const c = s.conflict;
      if (origin === 'push') Object.assign(c, { localHash: local.hash, localContentType: local.contentType });
      else Object.assign(c, { serviceHash: service.hash, serviceContentType: service.contentType });
      if (!this.newConflicts.has(c.id)) this.changedConflicts.set(c.id, path);
      return c.id;
    }
    const id = newId();
    this.origins.set(id, origin);
    s.conflict = {
      id,
      localHash: local.hash,
      localContentType: local.contentType,
      serviceHash: service.hash,
      serviceContentType: service.contentType,
      baseHash,
    };
    this.newConflicts.set(id, path);
    this.events.push({ type: 'conflict.opened', relativePath: path, conflictId: id, localHash: local.hash, serviceHash: service.hash, baseHash });
    return id;
  }

  /** Closes the open conflict of a path with its resolution (the caller wrote the resulting version, if any). */
  resolved(path: string, resolution: SyncResolution, resultHash: string | null) {
    const s = this.get(path);
    const c = s.conflict;
    if (!c) throw new Error(`no open conflict on ${path}`);
    this.resolutions.push({ id: c.id, resolution, resultHash });
    this.events.push({
      type: 'conflict.resolved',
      relativePath: path,
      conflictId: c.id,
      resolution,
      contentHash: resultHash,
      contentType: resultHash ? s.contentType : null,
      size: resultHash ? s.size : null,
      localHash: c.localHash,
      serviceHash: c.serviceHash,
      baseHash: c.baseHash,
    });
    s.conflict = null;
  }
  private resolutions: { id: string; resolution: SyncResolution; resultHash: string | null }[] = [];

  /** A source event (paused, resumed). */
  sourceEvent(type: 'source.paused' | 'source.resumed') {
    this.events.push({ type, relativePath: null });
  }

  /** Writes everything collected, in as few statements as the data allows. */
  async flush(): Promise<void> {
    const { db, workspaceId, sourceId, who, now } = this;
    if (this.blobs.size) {
      const rows = [...this.blobs].map(([hash, content]) => ({ workspaceId, hash, size: content.length, content }));
      for (const chunk of chunks(rows, 2000, (r) => r.size, 16 * 1024 * 1024))
        await db
          .insertInto('syncBlobs')
          .values(chunk)
          .onConflict((oc) => oc.columns(['workspaceId', 'hash']).doNothing())
          .execute();
    }
    const base = { workspace_id: workspaceId, source_id: sourceId, created_at: now };
    if (this.versions.length)
      await insertJson(
        db,
        'sync_versions',
        VERSION_COLUMNS,
        this.versions.map((v) => ({
          ...base,
          relative_path: v.relativePath,
          content_hash: v.contentHash,
          content_type: v.contentType,
          size: v.size,
          deleted: v.deleted,
          origin: v.origin,
          user_id: who.userId,
          connector_id: who.connectorId,
          conflict_id: v.conflictId,
        })),
      );
    if (this.dirtyFiles.size)
      await insertJson(
        db,
        'sync_files',
        FILE_COLUMNS,
        [...this.dirtyFiles].map((path) => {
          const s = this.get(path);
          return {
            ...base,
            relative_path: path,
            content_hash: s.contentHash,
            content_type: s.contentType,
            size: s.size,
            deleted: s.deleted,
            version: s.version,
            updated_by: s.updatedBy,
            updated_by_connector: s.updatedByConnector,
            updated_at: now,
          };
        }),
        `on conflict (source_id, relative_path) do update set content_hash = excluded.content_hash, content_type = excluded.content_type,
         size = excluded.size, deleted = excluded.deleted, version = excluded.version, updated_by = excluded.updated_by,
         updated_by_connector = excluded.updated_by_connector, updated_at = excluded.updated_at`,
      );
    if (this.newConflicts.size)
      await insertJson(
        db,
        'sync_conflicts',
        CONFLICT_COLUMNS,
        [...this.newConflicts].map(([id, path]) => {
          const c = this.get(path).conflict ?? this.closedConflict(id);
          return {
            ...base,
            id,
            relative_path: path,
            status: 'open',
            origin: this.conflictOrigin(id),
            local_hash: c.localHash,
            local_content_type: c.localContentType,
            service_hash: c.serviceHash,
            service_content_type: c.serviceContentType,
            base_hash: c.baseHash,
            connector_id: who.connectorId,
            created_by: who.userId,
            updated_at: now,
          };
        }),
      );
    for (const [id, path] of this.changedConflicts) {
      const c = this.get(path).conflict;
      if (!c || c.id !== id) continue;
      await db
        .updateTable('syncConflicts')
        .set({
          localHash: c.localHash,
          localContentType: c.localContentType,
          serviceHash: c.serviceHash,
          serviceContentType: c.serviceContentType,
          updatedAt: now,
        })
        .where('id', '=', id)
        .where('workspaceId', '=', workspaceId)
        .execute();
    }
    for (const r of this.resolutions)
      await db
        .updateTable('syncConflicts')
        .set({ status: 'resolved', resolution: r.resolution, resolvedHash: r.resultHash, resolvedBy: who.userId, resolvedAt: now, updatedAt: now })
        .where('id', '=', r.id)
        .where('workspaceId', '=', workspaceId)
        .execute();
    // The identity column numbers the rows in the order json_to_recordset yields them: the order collected.
    if (this.events.length)
      await insertJson(
        db,
        'sync_events',
        EVENT_COLUMNS,
        this.events.map((e) => ({
          ...base,
          type: e.type,
          relative_path: e.relativePath,
          content_hash: e.contentHash ?? null,
          content_type: e.contentType ?? null,
          size: e.size ?? null,
          conflict_id: e.conflictId ?? null,
          local_hash: e.localHash ?? null,
          service_hash: e.serviceHash ?? null,
          base_hash: e.baseHash ?? null,
          resolution: e.resolution ?? null,
          user_id: who.userId,
          connector_id: who.connectorId,
        })),
      );
  }

  private origins = new Map<string, 'push' | 'update'>();
  private conflictOrigin(id: string): 'push' | 'update' {
    return this.origins.get(id) ?? 'push';
  }
  private closedConflict(id: string): OpenConflict {
    throw new Error(`conflict ${id} was opened and closed in one flush`);
  }
}

/** Splits rows into chunks of at most `max` rows (and, with `weight`, at most `maxWeight` in total). */
function* chunks<T>(rows: T[], max: number, weight?: (r: T) => number, maxWeight = Number.POSITIVE_INFINITY): Generator<T[]> {
  let cur: T[] = [];
  let w = 0;
  for (const r of rows) {
    const rw = weight ? weight(r) : 0;
    if (cur.length && (cur.length >= max || w + rw > maxWeight)) {
      yield cur;
      cur = [];
      w = 0;
    }
    cur.push(r);
    w += rw;
  }
  if (cur.length) yield cur;
}

type Columns = readonly (readonly [name: string, type: string])[];
const COMMON: Columns = [
  ['workspace_id', 'text'],
  ['source_id', 'text'],
  ['created_at', 'timestamptz'],
];
const VERSION_COLUMNS: Columns = [
  ...COMMON,
  ['relative_path', 'text'],
  ['content_hash', 'text'],
  ['content_type', 'text'],
  ['size', 'int'],
  ['deleted', 'boolean'],
  ['origin', 'text'],
  ['user_id', 'text'],
  ['connector_id', 'text'],
  ['conflict_id', 'text'],
];
const FILE_COLUMNS: Columns = [
  ...COMMON,
  ['relative_path', 'text'],
  ['content_hash', 'text'],
  ['content_type', 'text'],
  ['size', 'int'],
  ['deleted', 'boolean'],
  ['version', 'int'],
  ['updated_by', 'text'],
  ['updated_by_connector', 'text'],
  ['updated_at', 'timestamptz'],
];
const CONFLICT_COLUMNS: Columns = [
  ...COMMON,
  ['id', 'text'],
  ['relative_path', 'text'],
  ['status', 'text'],
  ['origin', 'text'],
  ['local_hash', 'text'],
  ['local_content_type', 'text'],
  ['service_hash', 'text'],
  ['service_content_type', 'text'],
  ['base_hash', 'text'],
  ['connector_id', 'text'],
  ['created_by', 'text'],
  ['updated_at', 'timestamptz'],
];
const EVENT_COLUMNS: Columns = [
  ...COMMON,
  ['type', 'text'],
  ['relative_path', 'text'],
  ['content_hash', 'text'],
  ['content_type', 'text'],
  ['size', 'int'],
  ['conflict_id', 'text'],
  ['local_hash', 'text'],
  ['service_hash', 'text'],
  ['base_hash', 'text'],
  ['resolution', 'text'],
  ['user_id', 'text'],
  ['connector_id', 'text'],
];

/**
 * A multi-row insert as one JSON parameter expanded by json_to_recordset: a short statement PostgreSQL parses
 * (and PGlite prepares) once, instead of thousands of bind parameters. Table and column names are constants.
 */
export async function insertJson(db: Db, table: string, columns: Columns, rows: Record<string, unknown>[], suffix = '') {
  const names = columns.map(([n]) => n).join(', ');
  const types = columns.map(([n, t]) => `${n} ${t}`).join(', ');
  for (const chunk of chunks(rows, 5000))
    await sql`insert into ${sql.raw(table)} (${sql.raw(names)}) select ${sql.raw(names)} from json_to_recordset(${JSON.stringify(chunk)}::json) as x(${sql.raw(types)}) ${sql.raw(suffix)}`.execute(
      db,
    );
}
