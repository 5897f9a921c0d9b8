import type { Selectable } from 'kysely';
import type { ExportTable } from '../../db/tables/exports.js';

export type ExportRow = Selectable<ExportTable>;

export function presentExport(row: ExportRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    pageId: row.pageId,
    format: row.format,
    includeChildren: row.includeChildren,
    includeAttachments: row.includeAttachments,
    status: row.status,
    progress: { done: row.progressDone, total: row.progressTotal },
    error: row.error,
    size: row.size === null ? null : Number(row.size),
    sha256: row.sha256,
    filename: row.filename,
    downloadUrl: row.status === 'succeeded' ? `/api/v1/exports/${encodeURIComponent(row.id)}/download` : null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}
