import type { NewEvent } from './events.record.js';

/**
 * The event of an import or export that finished, either way (`data.status` 'succeeded' or 'failed' for good; a
 * failure the queue will retry is not finished). Its requester is in `data.requestedBy`; the space (and the page, when
 * it is about one) decide who may hear of it.
 */
export function finishedEvent(
  kind: 'import' | 'export',
  row: { id: string; workspaceId: string; requestedBy: string; spaceId: string; filename: string },
  pageId: string | null,
  status: 'succeeded' | 'failed',
  data: Record<string, unknown> = {},
): NewEvent {
  return {
    workspaceId: row.workspaceId,
    type: kind === 'import' ? 'import.finished' : 'export.finished',
    subject: { type: kind, id: row.id },
    spaceId: row.spaceId,
    pageId,
    actorId: row.requestedBy,
    data: { status, filename: row.filename, requestedBy: row.requestedBy, ...data },
  };
}
