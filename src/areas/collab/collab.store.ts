import * as Y from 'yjs';
import type { Ctx } from '../../context.js';
import { replaceLiveContent } from '../../editor/ydoc.js';
import { gone, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { documentToYStateOffThread, yStateToSnapshotOffThread } from '../../workers/offload.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { recordEvent } from '../events/events.record.js';
import { newlyMentioned } from '../events/mentions.js';
import { historyRepo } from '../pages/history/history.repo.js';
import { localEditors, type PageEditors } from './collab.editors.js';
import { collabRepo } from './collab.repo.js';

/**
 * What this instance knows of a live page's editing: who edited since the last store (shared by every instance when
 * they share documents through Redis: collab.editors.ts), and the Yjs state it last loaded or stored.
 */
export class EditSession {
  /** The Yjs state this instance last loaded or stored: while the page still holds it, there is nothing to merge in. */
  knownState: Uint8Array | null = null;

  constructor(private readonly editors: PageEditors = localEditors()) {}

  edited(userId: string) {
    this.editors.edited(userId);
  }

  takeEditors(): Promise<string[]> {
    return this.editors.take();
  }
}

/**
 * The Yjs state a page's live document starts from: the stored one, or, the first time, one built from its content and
 * stored at once (with the row locked, so a write cannot slip between reading the content and seeding from it, and two
 * instances seeding together keep one state).
 */
export async function loadLiveState(ctx: Ctx, pageId: string): Promise<Uint8Array> {
  return ctx.db.transaction().execute(async (trx) => {
    const page = await collabRepo.lockLive(trx, pageId);
    if (!page) throw notFound('Page', pageId);
    if (page.deletedAt) throw gone('Page', pageId);
    if (page.ydoc) return page.ydoc;
    const state = await documentToYStateOffThread(ctx.env.config, page.content);
    await collabRepo.saveState(trx, pageId, state);
    return state;
  });
}

const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];

/**
 * Stores a live document as its page: the Yjs state, and JSON and text checked like a REST write (what the API would
 * refuse is taken out of the live document too). The stored state is merged in first, so a write from outside that this
 * instance has not heard of yet is kept, never overwritten. A changed text bumps the page's version; the history entry
 * is extended while the same run of editing goes on, else a new one is made. Versions follow a cadence, not keystrokes:
 * one holds a run of editing until COLLAB_VERSION_QUIET_MS of quiet or COLLAB_VERSION_MAX_MS of continuous editing, or
 * until a write from outside (which makes its own version). The cadence is read from the page and its current version,
 * so it is the same whichever instance stores. Someone whose edit an earlier store already holds (told late, from
 * another instance) is added to the current co-edited version's contributors.
 *
 * Events follow the versions, not the autosaves: `page.updated` when a save starts a history version, and otherwise only
 * when the save newly @mentions someone (each save compares its content with the stored one, so a mention notifies once).
 */
export async function storeLiveDocument(ctx: Ctx, pageId: string, doc: Y.Doc, session: EditSession): Promise<void> {
  const { config } = ctx.env;
  const recorded = await ctx.db.transaction().execute(async (trx): Promise<boolean> => {
    const page = await collabRepo.lockLive(trx, pageId);
    if (!page || page.deletedAt) return false;
    // Merging a large state costs the request thread tens of milliseconds: only when the stored one is not ours.
    if (page.ydoc && !(session.knownState && Buffer.from(page.ydoc).equals(session.knownState))) Y.applyUpdate(doc, page.ydoc);
    let state = Y.encodeStateAsUpdate(doc);
    session.knownState = state;
    const snapshot = await yStateToSnapshotOffThread(config, { state, stored: page.content });
    if (snapshot.bytes > config.MAX_PAGE_BYTES) {
      // Larger than a page may be: the live document goes back to what is stored, as a PUT of it would be refused.
      ctx.log.warn({ pageId, bytes: snapshot.bytes }, 'a live document grew past MAX_PAGE_BYTES; reverted to the stored page');
      replaceLiveContent(doc, page.content);
      await session.takeEditors();
      session.knownState = Y.encodeStateAsUpdate(doc);
      await collabRepo.saveState(trx, pageId, session.knownState);
      return false;
    }
    if (snapshot.corrected) {
      replaceLiveContent(doc, snapshot.json);
      state = Y.encodeStateAsUpdate(doc);
      session.knownState = state;
    }
    const editors = await session.takeEditors();
    const current = await collabRepo.currentVersion(trx, page.workspaceId, pageId);
    if (snapshot.unchanged) {
      if (!page.ydoc || !Buffer.from(page.ydoc).equals(state)) await collabRepo.saveState(trx, pageId, state);
      const named = current?.contributors;
      if (named && editors.some((e) => !named.includes(e))) await historyRepo.extendCurrent(trx, page.workspaceId, pageId, page.version, union(named, editors));
      return false;
    }
    const now = ctx.now();
    const at = now.getTime();
    const version = page.version + 1;
    const goesOn =
      current?.contributors != null &&
      current.version === page.version &&
      at - page.updatedAt.getTime() < config.COLLAB_VERSION_QUIET_MS &&
      at - current.createdAt.getTime() < config.COLLAB_VERSION_MAX_MS;
    if (goesOn) {
      await historyRepo.extendCurrent(trx, page.workspaceId, pageId, version, union(current.contributors!, editors));
    } else {
      const author = editors[0] ?? page.updatedBy ?? page.createdBy;
      await historyRepo.beginVersion(trx, page.content, {
        id: newId(),
        workspaceId: page.workspaceId,
        pageId,
        version,
        title: page.title,
        summary: editors.length > 1 ? 'Edited together' : 'Edited content',
        createdBy: author as string,
        createdAt: now,
        contributors: editors.length ? editors : author ? [author] : [],
      });
    }
    await collabRepo.saveContent(trx, pageId, {
      content: snapshot.json,
      textContent: snapshot.text,
      ydoc: state,
      version,
      updatedBy: editors.at(-1) ?? page.updatedBy,
      updatedAt: now,
    });
    const mentionedUserIds = newlyMentioned(page.content, snapshot.json);
    if (goesOn && mentionedUserIds.length === 0) return false;
    await recordEvent(trx, ctx, {
      workspaceId: page.workspaceId,
      type: 'page.updated',
      subject: { type: 'page', id: pageId },
      spaceId: page.spaceId,
      pageId,
      actorId: editors.at(-1) ?? null,
      data: { title: page.title, version, newVersion: !goesOn, live: true, editors, mentionedUserIds },
    });
    return true;
  });
  if (recorded) await nudgeEventDispatch(ctx);
}
