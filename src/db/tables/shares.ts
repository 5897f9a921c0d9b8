import type { CreatedAt, UpdatedAt } from '../types.js';

/** A public share link of a page (migration 0030); at most one active (not revoked) per page. */
export interface ShareTable {
  id: string;
  workspaceId: string;
  spaceId: string;
  pageId: string;
  includeSubtree: boolean;
  /** Search engines may index the shared pages (no `noindex`). */
  allowIndexing: boolean;
  /** sha256 (hex) of the link's token; the token itself is shown once, on creation. */
  tokenHash: string;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  revokedAt: Date | null;
  revokedBy: string | null;
  /** Last public read (updated at most once a minute). */
  lastViewedAt: Date | null;
}

export interface SharesTables {
  shares: ShareTable;
}
