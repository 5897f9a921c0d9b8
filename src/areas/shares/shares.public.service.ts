import type { RangeRequest } from '../../blobs/byte-range.js';
import type { Ctx } from '../../context.js';
import type { DocJson } from '../../db/tables/pages.js';
import { AppError, notFound } from '../../errors.js';
import { presentAttachment } from '../attachments/attachments.present.js';
import { attachmentsRepo } from '../attachments/attachments.repo.js';
import { openAttachmentBytes } from '../attachments/attachments.service.js';
import { hashApiKey } from '../auth/tokens.js';
import { attachmentIdsIn, publicContent } from './shares.links.js';
import { presentPublicShare, presentTreeItem } from './shares.present.js';
import { type ShareRow, sharesRepo } from './shares.repo.js';

/**
 * Reading a share without signing in. The token is the only credential: it is hashed and looked up on every read, and
 * the share must still be alive then (not revoked, public pages still allowed in its workspace, its page neither
 * trashed nor restricted), so any of those ends the link at once. What a visitor can reach is the shared page (and its
 * subtree, less trashed and restricted pages), their content with links made safe, and their attachments: nothing else.
 */

/** The one answer for every token that opens nothing (unknown, revoked, switched off): no way to tell them apart. */
function unavailable(): AppError {
  return new AppError('NOT_FOUND', 'This link is no longer available', { resource: 'Share' });
}

async function liveShare(ctx: Ctx, token: string): Promise<ShareRow> {
  const share = await sharesRepo.findLiveByTokenHash(ctx.db, hashApiKey(token));
  if (!share) throw unavailable();
  return share;
}

/** The share and the ids of the pages it opens, root first. */
async function openShare(ctx: Ctx, token: string) {
  const share = await liveShare(ctx, token);
  const pages = await sharesRepo.sharedPages(ctx.db, share.workspaceId, share.pageId, share.includeSubtree);
  if (!pages.length) throw unavailable();
  return { share, pages, pageIds: new Set(pages.map((p) => p.id)) };
}

/** A page of the share, its content made public. */
async function publicPage(ctx: Ctx, token: string, share: ShareRow, pageIds: Set<string>, pageId: string) {
  const row = await sharesRepo.pageContent(ctx.db, share.workspaceId, pageId);
  if (!row) throw notFound('Page', pageId);
  const content = row.content as DocJson;
  const inside = await sharesRepo.attachmentsOfPages(ctx.db, share.workspaceId, [...pageIds], attachmentIdsIn(content));
  const base = `/s/${encodeURIComponent(token)}`;
  const scope = {
    hasPage: (id: string) => pageIds.has(id),
    hasAttachment: (id: string) => inside.has(id),
    pageUrl: (id: string) => `${base}/${encodeURIComponent(id)}`,
    attachmentUrl: (id: string) => `/api/v1/public/shares/${encodeURIComponent(token)}/attachments/${encodeURIComponent(id)}`,
  };
  return { id: row.id, title: row.title, icon: row.icon, content: publicContent(content, scope), updatedAt: row.updatedAt.toISOString() };
}

/** The first screen in one answer: the shared page and the tree of what is shared. */
export async function readShare(ctx: Ctx, token: string) {
  const { share, pages, pageIds } = await openShare(ctx, token);
  const page = await publicPage(ctx, token, share, pageIds, share.pageId);
  await sharesRepo.touchViewed(ctx.db, share.workspaceId, share.id, ctx.now());
  return { share: presentPublicShare(share), page, tree: pages.map((p) => presentTreeItem(p, share.pageId)) };
}

/** A page inside the share; any other page (outside it, trashed, restricted) is not found. */
export async function readSharedPage(ctx: Ctx, token: string, pageId: string) {
  const { share, pageIds } = await openShare(ctx, token);
  if (!pageIds.has(pageId)) throw notFound('Page', pageId);
  return { share: presentPublicShare(share), page: await publicPage(ctx, token, share, pageIds, pageId) };
}

/**
 * What the server-rendered reader (`/s/<token>[/<pageId>]`) shows: a page of the share (the root when `pageId` is
 * absent) and the tree of shared pages, in one pass. A page outside the share (or trashed, or restricted) is not found.
 */
export async function readShareForReader(ctx: Ctx, token: string, pageId?: string) {
  const { share, pages, pageIds } = await openShare(ctx, token);
  const id = pageId ?? share.pageId;
  if (!pageIds.has(id)) throw notFound('Page', id);
  const page = await publicPage(ctx, token, share, pageIds, id);
  await sharesRepo.touchViewed(ctx.db, share.workspaceId, share.id, ctx.now());
  return { share: presentPublicShare(share), page, tree: pages.map((p) => presentTreeItem(p, share.pageId)) };
}

/** An attachment of a page inside the share, and a stream of its bytes (or of the range `request` asks for). */
export async function openSharedAttachment(ctx: Ctx, token: string, attachmentId: string, request: RangeRequest = {}) {
  const { share, pageIds } = await openShare(ctx, token);
  const row = await attachmentsRepo.find(ctx.db, attachmentId);
  if (!row || row.workspaceId !== share.workspaceId || !pageIds.has(row.pageId)) throw notFound('Attachment', attachmentId);
  return { share: presentPublicShare(share), attachment: presentAttachment(row), ...(await openAttachmentBytes(ctx, row, request)) };
}
