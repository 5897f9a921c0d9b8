import { z } from 'zod';
import { isBlobKey } from '../blobs/blob-store.js';

/** What a backup archive holds, as `manifest.json` (the archive's last entry: it is written once everything is in). */

export const MANIFEST_ENTRY = 'manifest.json';
export const BACKUP_FORMAT = 'kb-backup';
/** Raised when the layout changes in a way an older `kb restore` could not read. */
export const BACKUP_FORMAT_VERSION = 1;

/** The database dump's entry: the embedded engine's data folder, or `pg_dump --format=custom` of a server. */
export const DATABASE_ENTRY = { pglite: 'database/pgdata.tar.gz', postgres: 'database/postgres.dump' } as const;
export const blobEntry = (key: string) => `blobs/${key}`;

export type DatabaseKind = keyof typeof DATABASE_ENTRY;

export const RecordCounts = z.object({
  users: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  pageVersions: z.number().int().nonnegative(),
  tasks: z.number().int().nonnegative(),
  attachments: z.number().int().nonnegative(),
});
export type RecordCounts = z.infer<typeof RecordCounts>;

export const BlobRecord = z.object({
  key: z.string().refine(isBlobKey, 'not a blob key'),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BlobRecord = z.infer<typeof BlobRecord>;

export const Manifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int(),
  kbVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    /** The server's version (`server_version`), for choosing a pg_restore that can read the dump. */
    serverVersion: z.string(),
    /** The newest migration applied when the dump was taken: a restore into a newer kb migrates from there. */
    lastMigration: z.string().nullable(),
    entry: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
  }),
  counts: RecordCounts,
  blobs: z.array(BlobRecord),
  /** Blob keys the dump's rows name but the store no longer had when they were copied (deleted meanwhile). */
  missingBlobs: z.array(z.string()),
});
export type Manifest = z.infer<typeof Manifest>;
