import { z } from 'zod';
import { envelope, Id } from '../../schema.js';

export const Share = z.object({
  id: z.string(),
  workspaceId: z.string(),
  spaceId: z.string(),
  pageId: z.string().describe('The published page (the root of the share)'),
  includeSubtree: z.boolean().describe('The pages under it are published too'),
  allowIndexing: z.boolean().describe('Search engines may index it (otherwise every answer carries `X-Robots-Tag: noindex`)'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastViewedAt: z.string().nullable().describe('Last public read (to the minute)'),
});

export const ShareListItem = Share.extend({
  page: z.object({ id: z.string(), title: z.string(), trashed: z.boolean() }),
  creator: z.object({ id: z.string(), name: z.string() }).nullable().describe('null if the account no longer exists'),
});

export const SharePageParams = z.object({ pageId: Id });
export const ShareParams = z.object({ shareId: Id });
export const WorkspaceSharesParams = z.object({ workspaceId: Id });

export const ShareCreateBody = z.object({
  includeSubtree: z.boolean().default(false).describe('Publish the pages under this one too'),
  allowIndexing: z.boolean().default(false).describe('Let search engines index the published pages'),
  newLink: z
    .boolean()
    .default(false)
    .describe('Make a new link: the page’s current link (if any) stops working at once. Without it, publishing a published page only updates its settings'),
});

export const ShareCreated = z.object({
  share: Share,
  url: z.string().nullable().describe('The public link: answered only when a link is made (only its hash is kept); null when an existing share was updated'),
});

export const ShareCreateResult = envelope(ShareCreated);
export const PageShareResult = envelope(Share.nullable().describe('The page’s active share, or null'));
export const ShareRevokeResult = z.object({ data: z.object({ id: z.string(), revoked: z.literal(true) }) });
export const ShareListResult = envelope(z.array(ShareListItem));

/** A public link's token as it appears in a URL (base64url of 32 bytes is 43 characters). */
export const ShareToken = z.string().min(1).max(200);
export const PublicShareParams = z.object({ token: ShareToken });
export const PublicSharePageParams = z.object({ token: ShareToken, pageId: Id });
export const PublicShareAttachmentParams = z.object({ token: ShareToken, attachmentId: Id });

export const PublicTreeItem = z.object({
  id: z.string(),
  parentId: z.string().nullable().describe('null for the shared root'),
  title: z.string(),
  icon: z.string().nullable(),
  position: z.string(),
});

export const PublicPage = z.object({
  id: z.string(),
  title: z.string(),
  icon: z.string().nullable(),
  content: z.record(z.string(), z.unknown()).describe('ProseMirror JSON; links into the share point at `/s/<token>/<pageId>`, others are plain text'),
  updatedAt: z.string(),
});

export const PublicShareInfo = z.object({ pageId: z.string(), includeSubtree: z.boolean(), allowIndexing: z.boolean() });

export const PublicShareResult = envelope(
  z.object({
    share: PublicShareInfo,
    page: PublicPage,
    tree: z.array(PublicTreeItem).describe('The shared pages (root first), when the subtree is shared; else just the root'),
  }),
);
export const PublicSharePageResult = envelope(z.object({ share: PublicShareInfo, page: PublicPage }));
