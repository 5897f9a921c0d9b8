import type { z } from 'zod';
import { publicUrlOf } from '../../config.js';
import { type Ctx, requireActor } from '../../context.js';
import { isUniqueViolation } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit } from '../audit/audit.record.js';
import { hashApiKey, newLinkToken } from '../auth/tokens.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { requirePageAccess } from '../pages/pages.policy.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { requirePublishRights, requireRevokeRights } from './shares.policy.js';
import { presentShare, presentShareListItem } from './shares.present.js';
import { sharesRepo } from './shares.repo.js';
import type { ShareCreateBody } from './shares.schema.js';

/**
 * Publishing a page makes one public link for it (256 random bits, base64url; only its sha256 is stored), answered
 * once. Publishing a published page updates its settings and keeps its link; `newLink` revokes the link and makes
 * another (the way to see a link again). Every change is in the audit log, in the same transaction.
 */

/** The public address of a link token: the web app's reader. */
export function shareUrl(ctx: Ctx, token: string): string {
  return `${publicUrlOf(ctx.env.config)}/s/${token}`;
}

export async function publishPage(ctx: Ctx, pageId: string, input: z.infer<typeof ShareCreateBody>) {
  requireActor(ctx);
  const page = await requirePublishRights(ctx, pageId);
  const settings = { includeSubtree: input.includeSubtree, allowIndexing: input.allowIndexing };
  try {
    const { id, token } = await ctx.db.transaction().execute(async (trx) => {
      const existing = await sharesRepo.findActiveForPage(trx, page.workspaceId, pageId);
      const audit = (action: 'share.created' | 'share.updated' | 'share.revoked', shareId: string, details: Record<string, unknown>) =>
        recordAudit(trx, ctx, { workspaceId: page.workspaceId, action, targetType: 'share', targetId: shareId, details: { pageId, ...details } });
      if (existing && !input.newLink) {
        await sharesRepo.updateSettings(trx, page.workspaceId, existing.id, settings, ctx.now());
        await audit('share.updated', existing.id, settings);
        return { id: existing.id, token: null };
      }
      if (existing) {
        await sharesRepo.revoke(trx, page.workspaceId, existing.id, requireActor(ctx).userId, ctx.now());
        await audit('share.revoked', existing.id, { reason: 'new_link' });
      }
      const token = newLinkToken();
      const id = newId();
      await sharesRepo.insert(trx, {
        id,
        workspaceId: page.workspaceId,
        spaceId: page.spaceId,
        pageId,
        ...settings,
        tokenHash: hashApiKey(token),
        createdBy: requireActor(ctx).userId,
      });
      await audit('share.created', id, settings);
      await recordEvent(trx, ctx, {
        workspaceId: page.workspaceId,
        type: 'page.published',
        subject: { type: 'page', id: pageId },
        spaceId: page.spaceId,
        pageId,
        data: { title: page.title, shareId: id, ...settings, newLink: !!existing },
      });
      return { id, token };
    });
    if (token) await nudgeEventDispatch(ctx);
    const row = await sharesRepo.find(ctx.db, id);
    if (!row) throw new Error('a share just written is missing');
    return { created: token !== null, result: { share: presentShare(row), url: token ? shareUrl(ctx, token) : null } };
  } catch (err) {
    if (isUniqueViolation(err, 'shares_active_page'))
      throw new AppError('ALREADY_EXISTS', 'This page was published by someone else at the same moment; try again', { reason: 'concurrent_publish', pageId });
    throw err;
  }
}

/** The page's active share (without its link, which only its hash is kept of), or null. */
export async function getPageShare(ctx: Ctx, pageId: string) {
  const { page } = await requirePageAccess(ctx, pageId, 'editor');
  const row = await sharesRepo.findActiveForPage(ctx.db, page.workspaceId, pageId);
  return row ? presentShare(row) : null;
}

export async function revokeShare(ctx: Ctx, shareId: string) {
  const actor = requireActor(ctx);
  const share = await requireRevokeRights(ctx, await sharesRepo.find(ctx.db, shareId), shareId);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await sharesRepo.revoke(trx, share.workspaceId, share.id, actor.userId, ctx.now()))) return;
    await recordAudit(trx, ctx, {
      workspaceId: share.workspaceId,
      action: 'share.revoked',
      targetType: 'share',
      targetId: share.id,
      details: { pageId: share.pageId },
    });
  });
  return { id: share.id, revoked: true as const };
}

/** Every active share of the workspace (admins): what is public, who made it and when. */
export async function listWorkspaceShares(ctx: Ctx, workspaceId: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  return (await sharesRepo.listActive(ctx.db, workspaceId)).map(presentShareListItem);
}
