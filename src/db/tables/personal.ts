import type { CreatedAt } from '../types.js';

/** A page a person starred (migration 0039): listed in their sidebar, oldest star first. */
export interface PageFavoriteTable {
  workspaceId: string;
  userId: string;
  pageId: string;
  createdAt: CreatedAt;
}

/** When a person last opened a page in the web app (migration 0039; written at most once a minute per page). */
export interface PageVisitTable {
  workspaceId: string;
  userId: string;
  pageId: string;
  visitedAt: Date;
}

export interface PersonalPagesTables {
  pageFavorites: PageFavoriteTable;
  pageVisits: PageVisitTable;
}
