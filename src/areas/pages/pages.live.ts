import type { Ctx } from '../../context.js';
import type { DocJson } from '../../db/tables/pages.js';
import { outsideWriteToYUpdateOffThread } from '../../workers/offload.js';

/** A content write's side in co-editing: the page's next Yjs state, and the update its live document merges. */
export interface LiveChange {
  state: Uint8Array;
  update: Uint8Array;
}

/**
 * The Yjs change a content write makes, computed from the stored state (call it inside the write's transaction, with the
 * row locked). Null for a page never co-edited: it has no live document, and its first one is built from `content`.
 */
export async function liveChangeOf(ctx: Ctx, storedState: Uint8Array | null, json: DocJson): Promise<LiveChange | null> {
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
