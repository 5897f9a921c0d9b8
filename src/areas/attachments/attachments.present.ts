export function presentAttachment(row: {
  id: string;
  pageId: string;
  workspaceId: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: Date;
  createdBy: string | null;
}) {
  return {
    id: row.id,
    pageId: row.pageId,
    workspaceId: row.workspaceId,
    filename: row.filename,
    contentType: row.contentType,
    size: Number(row.size),
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  };
}
