import { z } from 'zod';
import { Id, Name } from '../../schema.js';
import { MAX_CONTENT_TYPE_LENGTH, parseContentType } from '../../sync-rules/content.js';
import { MAX_PATTERN_LENGTH } from '../../sync-rules/globs.js';

/** Bodies of the local-sync endpoints (all POST) and their results (bare, no `{ data }` envelope). */

export const MODES = ['bidirectional', 'push_only', 'pull_only'] as const;
export const Mode = z.enum(MODES).describe('bidirectional; push_only (connector → service mirror); pull_only (service → connector mirror)');
/** A file's MIME type or the words text/binary: the encoding of `content` follows from it (src/sync-rules/content.ts). */
export const ContentType = z
  .string()
  .max(MAX_CONTENT_TYPE_LENGTH + 100)
  .refine((v) => parseContentType(v) !== null, 'must be a MIME type (type/subtype), "text" or "binary"')
  .describe(
    'The file’s MIME type (text/markdown, image/png) or "text" / "binary". Text types (text/*, JSON, XML, "text") carry UTF-8 content; any other type carries Base64',
  );
/** A content type as answered: the stored form (MIME essence, lower case, or text/binary). */
const StoredContentType = z.string().describe('MIME type, or "text" / "binary"');
export const RESOLUTIONS = ['keep_local', 'keep_service', 'manual_merge'] as const;

/** Any string field naming a path: its safety is checked after normalisation (422), so only a generous cap here. */
const RawPath = z.string().max(4096).describe('Path relative to the synced folder, forward slashes');
/** Up to 40 MB of characters: the byte limit (MAX_ATTACHMENT_BYTES) is checked on the decoded bytes. */
const Content = z.string().max(40 * 1024 * 1024);
const HashField = z.string().max(200).describe('SHA-256 hex of the bytes');
const Cursor = z.string().max(2000).describe('Opaque cursor from a previous answer');
const PageLimit = z.number().int().min(1).max(1000).default(100);
const WorkspaceField = { workspaceId: Id.optional().describe('The workspace (else the x-workspace-id header)') };
const Patterns = z.array(z.string().max(MAX_PATTERN_LENGTH)).max(100).default([]);

export const RegisterBody = z.object({
  ...WorkspaceField,
  name: Name,
  platform: z.string().trim().min(1).max(100),
  version: z.string().trim().min(1).max(100),
});
export const ConnectorBody = z.object({ ...WorkspaceField, connectorId: Id });
export const SourceCreateBody = z.object({
  ...WorkspaceField,
  name: Name,
  mode: Mode,
  connectorId: Id.nullish(),
  includePatterns: Patterns,
  excludePatterns: Patterns,
});
export const EmptyBody = z.object({ ...WorkspaceField }).default({});
export const SourceBody = z.object({ ...WorkspaceField, sourceId: Id });
export const FilesBody = z.object({ ...WorkspaceField, sourceId: Id, cursor: Cursor.nullish(), limit: PageLimit, includeDeleted: z.boolean().default(false) });
export const FileBody = z.object({ ...WorkspaceField, sourceId: Id, relativePath: RawPath, contentHash: HashField.nullish() });
export const FileUpdateBody = z.object({
  ...WorkspaceField,
  sourceId: Id,
  relativePath: RawPath,
  content: Content,
  contentType: ContentType.default('text'),
  baseHash: HashField.nullish().describe('The hash the edit started from; null/omitted when creating'),
});
export const PushItem = z.object({
  operationId: z.string().min(1).max(200).describe('Client-chosen id; a replay answers duplicate'),
  relativePath: RawPath,
  content: Content.optional(),
  contentType: ContentType.default('text'),
  contentHash: HashField.optional(),
  baseHash: HashField.nullish().describe('Last synced hash; null/omitted when never synced'),
  isDelete: z.boolean().default(false),
});
export type PushItem = z.infer<typeof PushItem>;
export const PushBody = z.object({
  ...WorkspaceField,
  sourceId: Id,
  connectorId: Id.nullish(),
  items: z.array(PushItem).min(1).max(500),
});
export const DeltasBody = z.object({
  ...WorkspaceField,
  sourceId: Id,
  cursor: Cursor.nullish(),
  limit: PageLimit,
  excludeConnectorId: Id.nullish().describe('Leave out the events this connector caused'),
  includeContent: z.boolean().default(false),
});
export const ConflictBody = z.object({ ...WorkspaceField, conflictId: Id });
export const ResolveBody = z.object({
  ...WorkspaceField,
  conflictId: Id,
  resolution: z.enum(RESOLUTIONS),
  resolvedContent: Content.optional(),
  contentType: ContentType.default('text'),
  connectorId: Id.nullish(),
});
export const HistoryBody = z.object({ ...WorkspaceField, sourceId: Id, relativePath: RawPath, cursor: Cursor.nullish(), limit: PageLimit });

// ---- results (documentation; presenters shape them)
const Hash = z.string().nullable();
export const Connector = z.object({
  connectorId: z.string(),
  workspaceId: z.string(),
  userId: z.string().nullable(),
  name: z.string(),
  platform: z.string(),
  version: z.string(),
  lastSeenAt: z.string(),
  online: z.boolean(),
  createdAt: z.string(),
});
export const Source = z.object({
  sourceId: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  mode: Mode,
  connectorId: z.string().nullable(),
  includePatterns: z.array(z.string()),
  excludePatterns: z.array(z.string()),
  paused: z.boolean(),
  pausedAt: z.string().nullable(),
  connector: Connector.pick({ connectorId: true, name: true, platform: true, version: true, lastSeenAt: true, online: true }).nullable(),
  fileCount: z.number(),
  openConflicts: z.number(),
  lastCursor: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const SourceList = z.object({ sources: z.array(Source) });
export const FileRecord = z.object({
  sourceId: z.string(),
  relativePath: z.string(),
  contentHash: Hash,
  contentType: StoredContentType,
  size: z.number(),
  deleted: z.boolean(),
  version: z.number(),
  conflictId: z.string().nullable(),
  updatedAt: z.string(),
  updatedBy: z.object({ userId: z.string().nullable(), connectorId: z.string().nullable() }),
});
export const FileContent = FileRecord.extend({ content: z.string() });
export const FileList = z.object({ files: z.array(FileRecord), nextCursor: z.string().nullable(), hasMore: z.boolean() });
export const UpdateResult = z.object({ status: z.enum(['ok', 'conflict']), conflictId: z.string().nullable(), file: FileRecord.nullable() });
export const PushResult = z.object({
  results: z.array(
    z.object({
      operationId: z.string(),
      relativePath: z.string(),
      status: z.enum(['applied', 'unchanged', 'conflict', 'duplicate', 'rejected']),
      contentHash: Hash,
      conflictId: z.string().nullable(),
      serviceHash: Hash,
      originalStatus: z.enum(['applied', 'unchanged', 'conflict']).optional(),
      error: z.object({ status: z.number(), code: z.string(), message: z.string(), field: z.string(), reason: z.string() }).nullable(),
    }),
  ),
});
export const Event = z.object({
  cursor: z.string(),
  type: z.enum(['file.upsert', 'file.delete', 'conflict.opened', 'conflict.resolved', 'source.paused', 'source.resumed']),
  sourceId: z.string(),
  relativePath: z.string().nullable(),
  contentHash: Hash,
  contentType: StoredContentType.nullable(),
  size: z.number().nullable(),
  conflictId: z.string().nullable(),
  localHash: Hash,
  serviceHash: Hash,
  baseHash: Hash,
  resolution: z.enum(RESOLUTIONS).nullable(),
  connectorId: z.string().nullable(),
  userId: z.string().nullable(),
  createdAt: z.string(),
  content: z.string().optional(),
});
export const DeltasResult = z.object({ events: z.array(Event), nextCursor: z.string(), hasMore: z.boolean() });
export const Conflict = z.object({
  conflictId: z.string(),
  sourceId: z.string(),
  relativePath: z.string(),
  localHash: Hash,
  serviceHash: Hash,
  baseHash: Hash,
  localContentType: StoredContentType,
  serviceContentType: StoredContentType,
  origin: z.enum(['push', 'update']),
  connectorId: z.string().nullable(),
  createdAt: z.string(),
});
export const ConflictList = z.object({ conflicts: z.array(Conflict) });
const Side = z.object({ contentHash: Hash, contentType: StoredContentType, content: z.string().nullable(), lines: z.array(z.string()) }).nullable();
export const Hunk = z.object({
  kind: z.enum(['local', 'service', 'both', 'clash']),
  baseStart: z.number(),
  baseLines: z.array(z.string()),
  localStart: z.number(),
  localLines: z.array(z.string()),
  serviceStart: z.number(),
  serviceLines: z.array(z.string()),
});
export const Preview = z.object({
  conflictId: z.string(),
  relativePath: z.string(),
  status: z.enum(['open', 'resolved']),
  binary: z.boolean(),
  base: Side,
  local: Side,
  service: Side,
  hunks: z.array(Hunk),
  clashes: z.number(),
  mergeable: z.boolean(),
  merged: z.string().nullable(),
});
export const ResolveResult = z.object({
  conflictId: z.string(),
  relativePath: z.string(),
  resolution: z.enum(RESOLUTIONS),
  status: z.literal('resolved'),
  contentHash: Hash,
  deleted: z.boolean(),
  file: FileRecord.nullable(),
});
export const HistoryResult = z.object({
  versions: z.array(
    z.object({
      versionId: z.string(),
      contentHash: Hash,
      contentType: StoredContentType,
      size: z.number(),
      deleted: z.boolean(),
      origin: z.enum(['push', 'update', 'resolve']),
      userId: z.string().nullable(),
      connectorId: z.string().nullable(),
      conflictId: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});
