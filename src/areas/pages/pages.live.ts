import type { Ctx } from '../../context.js';
import type { Db } from '../../db/index.js';
import type { DocJson } from '../../db/tables/pages.js';
import { outsideWriteToYUpdateOffThread } from '../../workers/offload.js';
import { pagesRepo } from './pages.repo.js';

/** A content write's side in co-editing: the page's next Yjs state, and the update its live document merges. */
export interface LiveChange {
  state: Uint8Array;
  update: Uint8Array;
}

/**
 * The Yjs change a content write makes, computed from the stored state (call it inside the write's transaction, with the
 * row locked; the state is read only here, so title-only writes never load it). Null for a page never co-edited: it
 * has no live document, and its first one is built from `content`.
 */
export async function liveChangeOf(ctx: Ctx, trx: Db, page: { workspaceId: string; id: string }, json: DocJson): Promise<LiveChange | null> {
  const storedState = await pagesRepo.liveState(trx, page.workspaceId, page.id);
  if (!storedState) return null;
  return outsideWriteToYUpdateOffThread(ctx.env.config, { state: storedState, json });
}

/**
 * After the write committed: people editing the page live get it merged into what they type, the smallest change, at
 * once. A failure here loses nothing (the stored state holds the write; a live document that missed it gets it from
 * the next load), so it is logged, not thrown.
 */
export async function announceLiveChange(ctx: Ctx, pageId: string, change: LiveChange | null): Promise<void> {
  if (!change || !ctx.env.liveDocuments) return;
  try {
    await ctx.env.liveDocuments.mergeOutsideWrite(pageId, change.update);
  } catch (err) {
    ctx.log.warn({ err, pageId }, 'could not merge a write into the live document');
  }
}

/**
 * After a write that changed the title committed: everyone with the page open sees the new title at once (the title is
 * not in the Yjs document). Losing this loses nothing: the next load reads the title; so it is logged, not thrown.
 */
export async function announceLiveTitle(ctx: Ctx, pageId: string, title: string | null): Promise<void> {
  if (title === null || !ctx.env.liveDocuments) return;
  try {
    await ctx.env.liveDocuments.announceTitle(pageId, title);
  } catch (err) {
    ctx.log.warn({ err, pageId }, 'could not announce a new title to the live document');
  }
}
