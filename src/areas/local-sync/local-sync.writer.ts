import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { SyncContentType, SyncEventType, SyncFileTable, SyncOrigin, SyncResolution } from '../../db/tables/local-sync.js';
import { newId } from '../../ids.js';
import { CONFLICT_COLUMNS, EVENT_COLUMNS, FILE_COLUMNS, FILE_UPSERT, insertJson, sourceWriterRepo, VERSION_COLUMNS } from './local-sync.writer.repo.js';

/** The current state of a path as the writer tracks it through a batch: the sync_files columns it needs, and more. */
export type PathState = Pick<
  Selectable<SyncFileTable>,
  'contentHash' | 'contentType' | 'size' | 'deleted' | 'version' | 'updatedBy' | 'updatedByConnector' | 'updatedAt'
> & {
  /** Whether a sync_files row exists (live or tombstone). */
  exists: boolean;
  /** The open conflict on the path, if any. */
  conflict: OpenConflict | null;
};

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

interface VersionRow {
  relativePath: string;
  contentHash: string | null;
  contentType: SyncContentType;
  size: number;
  deleted: boolean;
  origin: SyncOrigin;
  conflictId: string | null;
}

const absent = (now: Date): PathState => ({
  exists: false,
  contentHash: null,
  contentType: 'text',
  size: 0,
  deleted: true,
  version: 0,
  updatedBy: null,
  updatedByConnector: null,
  updatedAt: now,
  conflict: null,
});

/**
 * Collects the writes of one transaction on one source (a push batch, an update, a resolution) in order, then
 * flushes them in a few multi-row statements: blobs (content-addressed, stored once per hash), versions, the
 * current file rows, conflicts, events (their identity column gives the total order, in insertion order).
 * The caller holds the source's row lock, so nothing else writes this source meanwhile.
 */
export class SourceWriter {
  readonly state = new Map<string, PathState>();
  private blobs = new Map<string, Buffer>();
  private versions: VersionRow[] = [];
  private dirtyFiles = new Set<string>();
  private newConflicts = new Map<string, { path: string; origin: 'push' | 'update' }>();
  private changedConflicts = new Map<string, string>(); // conflictId → path
  private resolutions: { id: string; resolution: SyncResolution; resultHash: string | null }[] = [];
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
    for (let i = 0; i < wanted.length; i += 1000) {
      const chunk = wanted.slice(i, i + 1000);
      const { files, conflicts } = await sourceWriterRepo.pathState(this.db, this.workspaceId, this.sourceId, chunk);
      for (const p of chunk) this.state.set(p, absent(this.now));
      for (const f of files) {
        const { contentHash, contentType, size, deleted, version, updatedBy, updatedByConnector, updatedAt } = f;
        Object.assign(this.get(f.relativePath), { exists: true, contentHash, contentType, size, deleted, version, updatedBy, updatedByConnector, updatedAt });
      }
      for (const { relativePath, ...c } of conflicts) this.get(relativePath).conflict = c;
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
    const { hash: contentHash, contentType } = content;
    this.keepBlob(content);
    Object.assign(s, {
      exists: true,
      contentHash,
      contentType,
      size,
      deleted,
      version: s.version + 1,
      updatedBy: this.who.userId,
      updatedByConnector: this.who.connectorId,
      updatedAt: this.now,
    });
    this.dirtyFiles.add(path);
    this.versions.push({ relativePath: path, contentHash, contentType, size, deleted, origin, conflictId });
    this.events.push(
      deleted
        ? { type: 'file.delete', relativePath: path, contentType, size: 0, conflictId }
        : { type: 'file.upsert', relativePath: path, contentHash, contentType, size, conflictId },
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
    s.conflict = {
      id,
      localHash: local.hash,
      localContentType: local.contentType,
      serviceHash: service.hash,
      serviceContentType: service.contentType,
      baseHash,
    };
    this.newConflicts.set(id, { path, origin });
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

  /** A source event (paused, resumed). */
  sourceEvent(type: 'source.paused' | 'source.resumed') {
    this.events.push({ type, relativePath: null });
  }

  /** Writes everything collected, in as few statements as the data allows; events last, in the order collected. */
  async flush(): Promise<void> {
    if (this.blobs.size) await sourceWriterRepo.insertBlobs(this.db, this.workspaceId, this.blobs);
    await insertJson(this.db, 'sync_versions', VERSION_COLUMNS, this.versionRows());
    await insertJson(this.db, 'sync_files', FILE_COLUMNS, this.fileRows(), FILE_UPSERT);
    await insertJson(this.db, 'sync_conflicts', CONFLICT_COLUMNS, this.newConflictRows());
    await this.writeConflictChanges();
    await insertJson(this.db, 'sync_events', EVENT_COLUMNS, this.eventRows());
  }

  private get rowBase() {
    return { workspace_id: this.workspaceId, source_id: this.sourceId, created_at: this.now };
  }

  private versionRows() {
    const { userId, connectorId } = this.who;
    return this.versions.map((v) => ({
      ...this.rowBase,
      relative_path: v.relativePath,
      content_hash: v.contentHash,
      content_type: v.contentType,
      size: v.size,
      deleted: v.deleted,
      origin: v.origin,
      user_id: userId,
      connector_id: connectorId,
      conflict_id: v.conflictId,
    }));
  }

  private fileRows() {
    return [...this.dirtyFiles].map((path) => {
      const s = this.get(path);
      return {
        ...this.rowBase,
        relative_path: path,
        content_hash: s.contentHash,
        content_type: s.contentType,
        size: s.size,
        deleted: s.deleted,
        version: s.version,
        updated_by: s.updatedBy,
        updated_by_connector: s.updatedByConnector,
        updated_at: this.now,
      };
    });
  }

  private newConflictRows() {
    return [...this.newConflicts].map(([id, { path, origin }]) => {
      const c = this.get(path).conflict;
      if (!c || c.id !== id) throw new Error(`conflict ${id} was opened and closed in one flush`);
      return {
        ...this.rowBase,
        id,
        relative_path: path,
        status: 'open',
        origin,
        local_hash: c.localHash,
        local_content_type: c.localContentType,
        service_hash: c.serviceHash,
        service_content_type: c.serviceContentType,
        base_hash: c.baseHash,
        connector_id: this.who.connectorId,
        created_by: this.who.userId,
        updated_at: this.now,
      };
    });
  }

  /** Sides replaced on conflicts that were open before this batch, then the resolutions. */
  private async writeConflictChanges() {
    for (const [id, path] of this.changedConflicts) {
      const c = this.get(path).conflict;
      if (!c || c.id !== id) continue;
      const { localHash, localContentType, serviceHash, serviceContentType } = c;
      await sourceWriterRepo.updateConflictSides(this.db, this.workspaceId, id, { localHash, localContentType, serviceHash, serviceContentType }, this.now);
    }
    for (const r of this.resolutions) await sourceWriterRepo.resolveConflict(this.db, this.workspaceId, r, this.who.userId, this.now);
  }

  private eventRows() {
    const { userId, connectorId } = this.who;
    return this.events.map((e) => ({
      ...this.rowBase,
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
      user_id: userId,
      connector_id: connectorId,
    }));
  }
}
