import type { z } from 'zod';
import { type Ctx, requireActor } from '../../../context.js';
import { validation } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { nudgeEventDispatch } from '../../events/events.jobs.js';
import { recordEvents } from '../../events/events.record.js';
import { requireSpaceRole } from '../../spaces/spaces.policy.js';
import { insertNewPages, type PageDraft } from '../pages.insert.js';
import { requirePageAccess } from '../pages.policy.js';
import { placePosition } from '../pages.position.js';
import { presentPage } from '../pages.present.js';
import { pagesRepo } from '../pages.repo.js';
import { checkParent, pageSlug } from '../pages.service.js';
import { restrictionsRepo } from '../restrictions/restrictions.repo.js';
import { duplicateRepo } from './duplicate.repo.js';
import { DUPLICATE_MAX_PAGES, type DuplicateBody } from './duplicate.schema.js';

const copyTitle = (title: string) => {
  const t = `Copy of ${title}`;
  return t.length > 500 ? t.slice(0, 500).trimEnd() : t;
};

/**
 * Copies a page (and, with `includeChildren`, the descendants the caller can open) into new pages: same content (its
 * attachment links keep pointing at the original's files), icon and restrictions; the copy of the page itself is
 * titled "Copy of …" and lands right after the original, or under `parentId`. Each copy is created as a normal create
 * is: version 1 in the history, a `page.created` event, indexed for search by the same write. One transaction; more
 * than DUPLICATE_MAX_PAGES pages is a 422. Needs read access to the page and editor access in its space (and on the
 * target parent, when it is restricted).
 */
export async function duplicatePage(ctx: Ctx, pageId: string, input: z.infer<typeof DuplicateBody>) {
  const actor = requireActor(ctx);
  const { page } = await requirePageAccess(ctx, pageId, 'viewer', { workspaceId: input.workspaceId });
  const { workspaceId, spaceId } = page;
  await requireSpaceRole(ctx, workspaceId, spaceId, 'editor');
  const now = ctx.now();
  const rootCopyId = newId();
  let copied = 0;
  await ctx.db.transaction().execute(async (trx) => {
    await pagesRepo.lockSpaceTree(trx, spaceId, 'shared');
    const pages = await duplicateRepo.subtree(trx, {
      workspaceId,
      spaceId,
      rootId: pageId,
      userId: actor.userId,
      children: input.includeChildren,
      cap: DUPLICATE_MAX_PAGES,
    });
    if (pages.length > DUPLICATE_MAX_PAGES)
      throw validation(
        'includeChildren',
        'too_many_pages',
        `This page has more than ${DUPLICATE_MAX_PAGES} pages in its subtree; duplicate a smaller part of it`,
      );
    const root = pages[0];
    const sourceParentId = root.parentId;
    const parentId = input.parentId === undefined ? sourceParentId : input.parentId;
    if (parentId !== null) await checkParent(ctx, trx, workspaceId, spaceId, parentId);
    const beside = parentId === sourceParentId;
    const position = await placePosition(trx, { workspaceId, spaceId, parentId, userId: actor.userId }, beside ? { afterId: pageId } : {});

    const copyOf = new Map<string, string>([[root.id, rootCopyId]]);
    for (const p of pages.slice(1)) copyOf.set(p.id, newId());
    const drafts: PageDraft[] = pages.map((p, i) => {
      const title = i === 0 ? (input.title ?? copyTitle(p.title)) : p.title;
      return {
        id: copyOf.get(p.id)!,
        workspaceId,
        spaceId,
        parentId: i === 0 ? parentId : copyOf.get(p.parentId!)!,
        title,
        slug: pageSlug(title),
        icon: p.icon,
        content: p.content,
        textContent: p.textContent,
        position: i === 0 ? position : p.position,
      };
    });
    const rows = await insertNewPages(trx, drafts, { userId: actor.userId, now, summary: 'Created page (duplicate)' });
    // A restricted page's copy is restricted to the same people: duplicating must never open a page up.
    for (const p of pages.filter((s) => s.restricted)) {
      const grants = await restrictionsRepo.grantsOf(trx, p.id);
      await restrictionsRepo.put(
        trx,
        { workspaceId, pageId: copyOf.get(p.id)!, by: actor.userId, now },
        grants.map((g) => ({ userId: g.userId, groupId: g.groupId, role: g.role })),
      );
    }
    await recordEvents(
      trx,
      ctx,
      rows.map((r) => ({
        workspaceId,
        type: 'page.created' as const,
        subject: { type: 'page' as const, id: r.id },
        spaceId,
        pageId: r.id,
        data: { title: r.title, parentId: r.parentId, duplicateOf: pages.find((p) => copyOf.get(p.id) === r.id)!.id, mentionedUserIds: [] },
      })),
    );
    copied = rows.length;
  });
  await nudgeEventDispatch(ctx);
  const row = await pagesRepo.find(ctx.db, workspaceId, rootCopyId, actor.userId);
  return { ...presentPage(row!), copiedPages: copied };
}
