import type { ColumnType } from 'kysely';
import type { CreatedAt } from '../types.js';

export type ImportStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ImportResultJson {
  pages: number;
  attachments: number;
  rootPageIds: string[];
}

export interface ImportErrorJson {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export interface ImportTable {
  id: string;
  workspaceId: string;
  requestedBy: string;
  spaceId: string;
  parentPageId: string | null;
  /** As asked (`auto` or a source name). */
  source: string;
  /** The source it was read as, once the job has looked. */
  detectedSource: string | null;
  filename: string;
  size: ColumnType<number, number, number>;
  /** Key of the upload in the blob store (service-made). */
  blobKey: string;
  status: ColumnType<ImportStatus, ImportStatus | undefined, ImportStatus>;
  progressDone: ColumnType<number, number | undefined, number>;
  progressTotal: ColumnType<number, number | undefined, number>;
  result: ColumnType<ImportResultJson | null, string | null, string | null>;
  warnings: ColumnType<{ path: string; message: string }[], string | undefined, string>;
  error: ColumnType<ImportErrorJson | null, string | null, string | null>;
  createdAt: CreatedAt;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date;
}

export interface ImportsTables {
  imports: ImportTable;
}
