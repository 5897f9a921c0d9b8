import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import { AppError, forbidden, gone, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { newlyMentioned } from '../events/mentions.js';
import type { CommentAnchorValue } from '../../db/tables/comments.js';
import { loadLiveState } from '../collab/collab.store.js';
import { requirePageAccess } from '../pages/pages.policy.js';
import type { Role } from '../workspaces/workspaces.policy.js';
import { anchorQuoteOffThread } from '../../workers/offload.js';
import { threadParticipantIds } from './comments.events.js';
import { presentComment, presentComments, visibleThread } from './comments.present.js';
import { type CommentRow, commentsRepo } from './comments.repo.js';
import type { CommentCreateBody, CommentReactBody } from './comments.schema.js';

/**
 * Reading comments needs read rights on the page; writing (commenting, replying, resolving) needs editor rights.
 * Only the author edits a comment; the author or an admin (of the workspace or the space) deletes it. A comment on a
 * trashed page answers 410, like the page.
 */

export async function listComments(ctx: Ctx, input: { pageId: string; workspaceId: string }) {
  await requirePageAccess(ctx, input.pageId, 'viewer', { workspaceId: input.workspaceId });
  const rows = visibleThread(await commentsRepo.listForPage(ctx.db, input.workspaceId, input.pageId));
  const reactions = await commentsRepo.reactionsOf(
    ctx.db,
    input.workspaceId,
    rows.map((r) => r.id),
  );
  return presentComments(rows, reactions);
}

/** The comment and the caller's role on its page; a comment on an invisible page does not exist; a deleted one is 410. */
async function accessComment(ctx: Ctx, commentId: string, min: Role, givenWorkspaceId?: string) {
  const row = await commentsRepo.find(ctx.db, commentId);
  if (!row || (givenWorkspaceId && givenWorkspaceId !== row.workspaceId)) throw notFound('Comment', commentId);
  let role: Role;
  let page: { spaceId: string; title: string };
  try {
    ({ role, page } = await requirePageAccess(ctx, row.pageId, min, { workspaceId: row.workspaceId }));
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound('Comment', commentId);
    throw err;
  }
  if (row.deletedAt) throw gone('Comment', commentId);
  return { row, role, page };
}

async function present(ctx: Ctx, row: CommentRow) {
  return presentComment(row, await commentsRepo.reactionsOf(ctx.db, row.workspaceId, [row.id]));
}

async function read(ctx: Ctx, commentId: string) {
  const row = await commentsRepo.find(ctx.db, commentId);
  if (!row) throw notFound('Comment', commentId);
  return present(ctx, row);
}

export async function getComment(ctx: Ctx, commentId: string, givenWorkspaceId?: string) {
  const { row } = await accessComment(ctx, commentId, 'viewer', givenWorkspaceId);
  return present(ctx, row);
}

/**
 * The range a new thread is on: the one given (as the web editor makes it), or the first occurrence of `quote` in the
 * page's live document (seeded from the page when it has none yet, as co-editing would). Replies take their thread's.
 */
async function anchorOf(ctx: Ctx, input: z.infer<typeof CommentCreateBody>): Promise<CommentAnchorValue | null> {
  if (!input.anchor && input.quote === undefined) return null;
  if (input.parentId) throw validation(input.anchor ? 'anchor' : 'quote', 'reply', 'A reply is on its thread’s text: leave out anchor and quote');
  if (input.anchor && input.quote !== undefined) throw validation('quote', 'both', 'Give either anchor or quote, not both');
  if (input.anchor) return input.anchor;
  const quote = input.quote!;
  const range = await anchorQuoteOffThread(ctx.env.config, { state: await loadLiveState(ctx, input.pageId), quote });
  if (!range) throw validation('quote', 'not_found', 'The page has no such text (within one paragraph) to comment on');
  return { ...range, quote };
}

export async function createComment(ctx: Ctx, input: z.infer<typeof CommentCreateBody>) {
  const actor = requireActor(ctx);
  const { page } = await requirePageAccess(ctx, input.pageId, 'editor', { workspaceId: input.workspaceId });
  if (input.parentId) {
    const parent = await commentsRepo.find(ctx.db, input.parentId);
    if (!parent || parent.pageId !== input.pageId || parent.workspaceId !== input.workspaceId)
      throw validation('parentId', 'not_on_page', 'parentId must be a comment on the same page');
    if (parent.deletedAt) throw validation('parentId', 'deleted', 'Cannot reply to a deleted comment');
  }
  const anchor = await anchorOf(ctx, input);
  const id = newId();
  const parentId = input.parentId ?? null;
  await ctx.db.transaction().execute(async (trx) => {
    await recordEvent(trx, ctx, {
      workspaceId: input.workspaceId,
      type: 'comment.created',
      subject: { type: 'comment', id },
      spaceId: page.spaceId,
      pageId: input.pageId,
      data: {
        title: page.title,
        parentCommentId: parentId,
        threadParticipantIds: parentId ? await threadParticipantIds(trx, input.workspaceId, parentId) : [],
        mentionedUserIds: newlyMentioned(null, input.text),
      },
    });
    await commentsRepo.insert(trx, { id, workspaceId: input.workspaceId, pageId: input.pageId, parentId, text: input.text, authorId: actor.userId, anchor });
  });
  await nudgeEventDispatch(ctx);
  return read(ctx, id);
}

export async function updateComment(ctx: Ctx, commentId: string, input: { text: string; workspaceId?: string }) {
  const actor = requireActor(ctx);
  const { row, page } = await accessComment(ctx, commentId, 'editor', input.workspaceId);
  if (row.authorId !== actor.userId) throw forbidden('Only the author can edit a comment', { commentId });
  await ctx.db.transaction().execute(async (trx) => {
    await commentsRepo.updateText(trx, row.workspaceId, commentId, input.text, ctx.now());
    await recordEvent(trx, ctx, {
      workspaceId: row.workspaceId,
      type: 'comment.updated',
      subject: { type: 'comment', id: commentId },
      spaceId: page.spaceId,
      pageId: row.pageId,
      // An edit that adds a mention tells that person, once; the people already named heard of it before.
      data: { title: page.title, parentCommentId: row.parentId, mentionedUserIds: newlyMentioned(row.text, input.text) },
    });
  });
  await nudgeEventDispatch(ctx);
  return read(ctx, commentId);
}

export async function resolveComment(ctx: Ctx, commentId: string, input: { workspaceId: string; resolved: boolean }) {
  const actor = requireActor(ctx);
  const { row, page } = await accessComment(ctx, commentId, 'editor', input.workspaceId);
  // Resolving a resolved comment keeps who resolved it first and when.
  if (input.resolved !== (row.resolvedAt !== null)) {
    await ctx.db.transaction().execute(async (trx) => {
      await commentsRepo.setResolved(trx, row.workspaceId, commentId, input.resolved ? actor.userId : null, input.resolved ? ctx.now() : null);
      if (input.resolved)
        await recordEvent(trx, ctx, {
          workspaceId: row.workspaceId,
          type: 'comment.resolved',
          subject: { type: 'comment', id: commentId },
          spaceId: page.spaceId,
          pageId: row.pageId,
          data: { title: page.title, authorId: row.authorId, parentCommentId: row.parentId },
        });
    });
    if (input.resolved) await nudgeEventDispatch(ctx);
  }
  return read(ctx, commentId);
}

/** Emoji a comment may carry at most (different ones; each person gives each once). */
export const MAX_REACTION_KINDS = 20;

/** Adds or takes back the caller's emoji reaction (editor, like commenting); saying it twice changes nothing. */
export async function reactToComment(ctx: Ctx, commentId: string, input: z.infer<typeof CommentReactBody>) {
  const actor = requireActor(ctx);
  const { row } = await accessComment(ctx, commentId, 'editor', input.workspaceId);
  if (input.reacted) {
    const kinds = await commentsRepo.reactionKinds(ctx.db, commentId);
    if (!kinds.includes(input.emoji) && kinds.length >= MAX_REACTION_KINDS)
      throw validation('emoji', 'too_many', `A comment takes at most ${MAX_REACTION_KINDS} different emoji`);
  }
  await commentsRepo.react(ctx.db, { workspaceId: row.workspaceId, commentId, userId: actor.userId, emoji: input.emoji }, input.reacted);
  return present(ctx, row);
}

/** Soft delete: replies stay readable under a comment shown as deleted, without its text. */
export async function deleteComment(ctx: Ctx, commentId: string, givenWorkspaceId?: string) {
  const actor = requireActor(ctx);
  const { row, role } = await accessComment(ctx, commentId, 'editor', givenWorkspaceId);
  if (row.authorId !== actor.userId && role !== 'admin') throw forbidden('Only the author or an admin can delete a comment', { commentId });
  const res = await commentsRepo.softDelete(ctx.db, row.workspaceId, commentId, actor.userId, ctx.now());
  if (!Number(res.numUpdatedRows)) throw gone('Comment', commentId);
  return { id: commentId, deleted: true as const };
}
