import type { CreatedAt } from '../types.js';

export interface AttachmentTable {
  id: string;
  workspaceId: string;
  pageId: string;
  /** Display name only (never a path): the last segment of the given name, control characters removed. */
  filename: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: string;
  /** Key of the bytes in the blob store (service-made). */
  blobKey: string;
  createdBy: string | null;
  createdAt: CreatedAt;
}

export interface AttachmentsTables {
  attachments: AttachmentTable;
}
