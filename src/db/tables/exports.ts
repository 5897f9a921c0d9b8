import type { ColumnType } from 'kysely';
import type { CreatedAt } from '../types.js';

export type ExportFormat = 'markdown' | 'html';
export type ExportStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ExportTable {
  id: string;
  workspaceId: string;
  requestedBy: string;
  /** The space exported, or the space of the exported page. */
  spaceId: string;
  /** The root page of a subtree export; null for a whole space. */
  pageId: string | null;
  format: ExportFormat;
  includeChildren: boolean;
  includeAttachments: boolean;
  status: ColumnType<ExportStatus, ExportStatus | undefined, ExportStatus>;
  progressDone: ColumnType<number, number | undefined, number>;
  progressTotal: ColumnType<number, number | undefined, number>;
  error: string | null;
  /** Key of the finished zip in the blob store (service-made, set at creation). */
  blobKey: string;
  size: ColumnType<number | null, number | null | undefined, number | null>;
  sha256: string | null;
  /** The download's file name (Content-Disposition). */
  filename: string;
  createdAt: CreatedAt;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date;
}

export interface ExportsTables {
  exports: ExportTable;
}
