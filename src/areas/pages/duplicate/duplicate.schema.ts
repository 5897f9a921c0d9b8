import { z } from 'zod';
import { envelope, Id } from '../../../schema.js';
import { Page, Title } from '../pages.schema.js';

/** The most pages one duplicate copies (the page and its descendants); a bigger subtree is refused with 422. */
export const DUPLICATE_MAX_PAGES = 500;

export const DuplicateBody = z.object({
  workspaceId: Id.optional().describe('Optional: the page’s workspace is taken from the page itself; when given it must match'),
  includeChildren: z.boolean().default(false).describe(`Copy the pages below it too, as a subtree (at most ${DUPLICATE_MAX_PAGES} pages in all)`),
  title: Title.optional().describe('Title of the copy; default "Copy of <title>"'),
  parentId: Id.nullable()
    .optional()
    .describe('Where the copy goes: a page of the same space, or null for the space root; absent: beside the original, right after it'),
});

export const DuplicatedPage = Page.extend({ copiedPages: z.number().describe('How many pages were copied: the page and the descendants copied with it') });
export const DuplicateResult = envelope(DuplicatedPage);
