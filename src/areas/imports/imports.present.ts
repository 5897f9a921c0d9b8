import type { ImportRow } from './imports.repo.js';

export function presentImport(row: ImportRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    spaceId: row.spaceId,
    parentPageId: row.parentPageId,
    source: row.source as 'auto',
    detectedSource: row.detectedSource,
    filename: row.filename,
    size: Number(row.size),
    status: row.status,
    progress: { done: row.progressDone, total: row.progressTotal },
    result: row.result,
    warnings: row.warnings ?? [],
    error: row.error ? { code: row.error.code, message: row.error.message, details: row.error.details ?? {} } : null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
