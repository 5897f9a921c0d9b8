import { type Ctx, requireActor } from '../../../context.js';
import { documentToText } from '../../../editor/index.js';
import { gone, notFound } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { documentToMarkdownOffThread } from '../../../workers/offload.js';
import { nudgeEventDispatch } from '../../events/events.jobs.js';
import { recordEvent } from '../../events/events.record.js';
import { newlyMentioned } from '../../events/mentions.js';
import { announceLiveChange, announceLiveTitle, type LiveChange, liveChangeOf } from '../pages.live.js';
import { requirePageAccess } from '../pages.policy.js';
import { presentPage } from '../pages.present.js';
import { pagesRepo } from '../pages.repo.js';
import { pageSlug } from '../pages.service.js';
import { historyRepo } from './history.repo.js';

interface EntryRecord {
  id: string;
  pageId: string;
  version: number;
  title: string;
  summary: string;
  createdBy: string | null;
  createdAt: Date;
  contributors: string[] | null;
}

export function presentEntry(row: EntryRecord) {
  return {
    id: row.id,
    pageId: row.pageId,
    version: row.version,
    title: row.title,
    summary: row.summary,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    contributors: row.contributors ?? (row.createdBy ? [row.createdBy] : []),
  };
}

export async function listHistory(ctx: Ctx, pageId: string, opts: { workspaceId?: string; limit: number; page: number }) {
  const { page } = await requirePageAccess(ctx, pageId, 'viewer', { workspaceId: opts.workspaceId });
  const [rows, total] = await Promise.all([
    historyRepo.list(ctx.db, page.workspaceId, pageId, opts.limit, (opts.page - 1) * opts.limit),
    historyRepo.count(ctx.db, page.workspaceId, pageId),
  ]);
  return { data: rows.map(presentEntry), meta: { page: opts.page, limit: opts.limit, total } };
}

export async function getHistoryEntry(ctx: Ctx, pageId: string, historyId: string, opts: { workspaceId?: string; format?: 'json' | 'markdown' }) {
  const { page } = await requirePageAccess(ctx, pageId, 'viewer', { workspaceId: opts.workspaceId });
  const row = await historyRepo.find(ctx.db, page.workspaceId, pageId, historyId);
  if (!row) throw notFound('History entry', historyId);
  return {
    ...presentEntry(row),
    content: row.content,
    ...(opts.format === 'markdown' ? { markdown: await documentToMarkdownOffThread(ctx.env.config, row.content) } : {}),
  };
}

/**
 * Makes an earlier version current again, recording it as a new entry by the restorer (history is never rewritten).
 * The answer names the version that was current before, so the restore can be undone by restoring that one.
 */
export async function restorePage(ctx: Ctx, pageId: string, input: { historyId: string; workspaceId?: string }) {
  const actor = requireActor(ctx);
  const { page } = await requirePageAccess(ctx, pageId, 'editor', { workspaceId: input.workspaceId });
  const { workspaceId } = page;
  const now = ctx.now();
  let live: LiveChange | null = null;
  let newTitle: string | null = null;
  let restore: {
    historyId: string;
    version: number;
    restoredHistoryId: string;
    restoredVersion: number;
    previousHistoryId: string;
    previousVersion: number;
  } | null = null;
  await ctx.db.transaction().execute(async (trx) => {
    const current = await pagesRepo.lockWithContent(trx, workspaceId, pageId);
    if (!current) throw notFound('Page', pageId);
    if (current.deletedAt) throw gone('Page', pageId);
    const entry = await historyRepo.find(trx, workspaceId, pageId, input.historyId);
    if (!entry) throw notFound('History entry', input.historyId);
    if (entry.title !== current.title) newTitle = entry.title;
    const version = current.version + 1;
    const previous = await historyRepo.findCurrent(trx, workspaceId, pageId);
    if (!previous) throw notFound('History entry', pageId);
    live = await liveChangeOf(ctx, trx, current, entry.content);
    const historyId = newId();
    restore = {
      historyId,
      version,
      restoredHistoryId: entry.id,
      restoredVersion: entry.version,
      previousHistoryId: previous.id,
      previousVersion: previous.version,
    };
    await historyRepo.beginVersion(trx, current.content, {
      id: historyId,
      workspaceId,
      pageId,
      version,
      title: entry.title,
      summary: `Restored version ${entry.version}`,
      createdBy: actor.userId,
      createdAt: now,
    });
    await pagesRepo.update(
      trx,
      workspaceId,
      pageId,
      {
        title: entry.title,
        slug: pageSlug(entry.title),
        content: entry.content,
        textContent: documentToText(entry.content),
        version,
        ...(live ? { ydoc: live.state } : {}),
      },
      actor.userId,
      now,
    );
    await recordEvent(trx, ctx, {
      workspaceId,
      type: 'page.updated',
      subject: { type: 'page', id: pageId },
      spaceId: current.spaceId,
      pageId,
      data: { title: entry.title, version, restoredVersion: entry.version, mentionedUserIds: newlyMentioned(current.content, entry.content) },
    });
  });
  await nudgeEventDispatch(ctx);
  await announceLiveChange(ctx, pageId, live);
  await announceLiveTitle(ctx, pageId, newTitle);
  const row = await pagesRepo.find(ctx.db, workspaceId, pageId, requireActor(ctx).userId);
  if (!row || !restore) throw notFound('Page', pageId);
  return { ...presentPage(row), restore };
}
