import { z } from 'zod';
import { envelope, Id, Limit } from '../../../schema.js';
import { Page } from '../pages.schema.js';

export const FavoriteBody = z.object({
  workspaceId: Id.optional().describe('Optional: the page’s workspace is taken from the page itself; when given it must match'),
});
export const FavoriteQuery = FavoriteBody;

export const FavoriteState = z.object({
  pageId: z.string(),
  favorite: z.boolean().describe('Whether the page is now among the caller’s favourites'),
  favoritedAt: z.string().nullable().describe('When it was starred (the first time, if starred again); null once removed'),
});
export const FavoriteStateResult = envelope(FavoriteState);

export const FavoriteListQuery = z.object({
  workspaceId: Id,
  limit: Limit(100, 500).describe('How many (default 100, at most 500)'),
});

/** A page in a person's list, with its space's name. */
export const ListedPage = Page.extend({ spaceName: z.string() });
export const FavoritePage = ListedPage.extend({ favoritedAt: z.string().describe('When the caller starred it') });
export const FavoriteListResult = z.object({ data: z.array(FavoritePage) });

export const RecentQuery = z.object({
  workspaceId: Id,
  limit: Limit(10, 50).describe('How many of each list (default 10, at most 50)'),
});
export const VisitedPage = ListedPage.extend({ visitedAt: z.string().describe('When the caller last opened it in the web app (to the minute)') });
export const RecentPages = z.object({
  visited: z.array(VisitedPage).describe('The pages the caller opened last in the web app, newest first'),
  updated: z.array(ListedPage).describe('The workspace’s pages edited last (by anyone), newest first'),
});
export const RecentResult = envelope(RecentPages);
