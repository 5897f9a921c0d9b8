import { Node as PMNode } from '@tiptap/pm/model';
import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import type { Db } from '../../db/index.js';
import { schema } from '../../editor/index.js';
import { AppError, forbidden, gone, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { documentToMarkdownOffThread } from '../../workers/offload.js';
import { nudgeEventDispatch } from '../events/events.jobs.js';
import { type NewEvent, recordEvent, recordEvents } from '../events/events.record.js';
import { newlyMentioned } from '../events/mentions.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { slugify } from '../spaces/spaces.service.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { historyRepo } from './history/history.repo.js';
import { resolveBody } from './pages.content.js';
import { announceLiveChange, announceLiveTitle, type LiveChange, liveChangeOf } from './pages.live.js';
import { checkPageAccess, requireMayCarrySubtree, requirePageAccess } from './pages.policy.js';
import { placementGiven, placePosition } from './pages.position.js';
import { presentPage, presentPageWithContent, presentTreePage } from './pages.present.js';
import { type PagePatch, type ParentFilter, pagesRepo } from './pages.repo.js';
import type { PageCreateBody, PageListQuery, PageUpdateBody } from './pages.schema.js';
import { noteVisit } from './personal/recent.service.js';
import { restrictionCapOf } from './restrictions/restrictions.cap.js';

export const pageSlug = (title: string) => slugify(title, 'untitled');

/**
 * The parent a page is to live under: a live page of the same workspace and space that the caller may edit. 404 when
 * it names nothing the caller can see (a restricted page closed to them included); 403 when a restriction lets them
 * only read it; 422 when it is in another space or in the trash.
 */
export async function checkParent(ctx: Ctx, db: Db, workspaceId: string, spaceId: string, parentId: string) {
  const parent = await pagesRepo.findRef(db, parentId);
  const missing = () => new AppError('NOT_FOUND', 'Parent page not found', { resource: 'Page', id: parentId, field: 'parentId' });
  if (!parent || parent.workspaceId !== workspaceId) throw missing();
  if (parent.spaceId !== spaceId) {
    try {
      await requireSpaceRole({ ...ctx, db }, workspaceId, parent.spaceId, 'viewer');
    } catch {
      throw missing();
    }
    throw validation('parentId', 'other_space', 'The parent page must be in the same space');
  }
  const cap = await restrictionCapOf(db, parentId, requireActor(ctx).userId);
  if (cap === 'closed') throw missing();
  if (cap === 'viewer')
    throw forbidden('The parent page is restricted and you may only read it; editor access to it is needed', { pageId: parentId, field: 'parentId' });
  if (parent.deletedAt) throw validation('parentId', 'deleted', 'The parent page is in the trash');
}

export async function createPage(ctx: Ctx, input: z.infer<typeof PageCreateBody>) {
  const actor = requireActor(ctx);
  const { workspaceId, spaceId } = input;
  await requireSpaceRole(ctx, workspaceId, spaceId, 'editor');
  const body = (await resolveBody(ctx, input, true))!;
  const parentId = input.parentId ?? null;
  const id = newId();
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (parentId) {
      await pagesRepo.lockSpaceTree(trx, spaceId, 'shared');
      await checkParent(ctx, trx, workspaceId, spaceId, parentId);
    }
    const position = await placePosition(trx, { workspaceId, spaceId, parentId, userId: actor.userId }, input);
    await pagesRepo.insert(trx, {
      id,
      workspaceId,
      spaceId,
      parentId,
      title: input.title,
      slug: pageSlug(input.title),
      icon: input.icon ?? null,
      content: body.json,
      textContent: body.text,
      position,
      version: 1,
      createdBy: actor.userId,
      updatedBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    await historyRepo.insertCurrent(trx, {
      id: newId(),
      workspaceId,
      pageId: id,
      version: 1,
      title: input.title,
      summary: 'Created page',
      createdBy: actor.userId,
      createdAt: now,
    });
    await recordEvent(trx, ctx, {
      workspaceId,
      type: 'page.created',
      subject: { type: 'page', id },
      spaceId,
      pageId: id,
      data: { title: input.title, parentId, mentionedUserIds: newlyMentioned(null, body.json) },
    });
  });
  await nudgeEventDispatch(ctx);
  return presentPage(await pageOrThrow(ctx, workspaceId, id));
}

async function pageOrThrow(ctx: Ctx, workspaceId: string, id: string) {
  const row = await pagesRepo.find(ctx.db, workspaceId, id, requireActor(ctx).userId);
  if (!row) throw notFound('Page', id);
  return row;
}

/**
 * The strong entity tag of a page's editable state: its version, which every change of title or content increments
 * (moves and icons leave it, so reordering the tree never conflicts with someone's typing).
 */
export const pageEtag = (version: number) => `"v${version}"`;

/**
 * Does an `If-Match` header hold for the page's current version? `*` matches any live page; a list matches when one
 * entry does. Weak tags never match (RFC 9110 compares If-Match strongly).
 */
export function ifMatchHolds(header: string, version: number): boolean {
  const current = pageEtag(version);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === current;
  });
}

/** The page read with its entity tag (for the `ETag` header) and the caller's role in its space; `noteVisit` records a web app visit (recent pages). */
export async function readPage(ctx: Ctx, pageId: string, opts: { workspaceId?: string; format?: 'json' | 'markdown'; noteVisit?: boolean }) {
  const { page: row, role } = await checkPageAccess(ctx, pageId, await pagesRepo.findWithContentById(ctx.db, pageId, requireActor(ctx).userId), 'viewer', {
    workspaceId: opts.workspaceId,
  });
  if (opts.noteVisit) noteVisit(ctx, row);
  const markdown = opts.format === 'markdown' ? await documentToMarkdownOffThread(ctx.env.config, row.content) : undefined;
  return { page: { ...presentPageWithContent(row, markdown), role }, etag: pageEtag(row.version) };
}

export async function getPage(ctx: Ctx, pageId: string, opts: { workspaceId?: string; format?: 'json' | 'markdown' }) {
  return (await readPage(ctx, pageId, opts)).page;
}

type PageListInput = Omit<z.infer<typeof PageListQuery>, 'view'>;

/** Access to the space, and which of its pages a list names: every page, the roots (`null`), or a live page's children. */
async function listFilter(ctx: Ctx, query: PageListInput): Promise<ParentFilter> {
  const { workspaceId, spaceId } = query;
  await requireSpaceRole(ctx, workspaceId, spaceId, 'viewer');
  if (query.parentId === undefined) return { kind: 'all' };
  if (query.parentId === 'null') return { kind: 'children', parentId: null };
  const parent = await pagesRepo.findRef(ctx.db, query.parentId);
  if (!parent || parent.workspaceId !== workspaceId || parent.spaceId !== spaceId)
    throw new AppError('NOT_FOUND', 'Parent page not found in this space', { resource: 'Page', id: query.parentId, field: 'parentId' });
  if ((await restrictionCapOf(ctx.db, parent.id, requireActor(ctx).userId)) === 'closed')
    throw new AppError('NOT_FOUND', 'Parent page not found in this space', { resource: 'Page', id: query.parentId, field: 'parentId' });
  if (parent.deletedAt) throw gone('Page', query.parentId);
  return { kind: 'children', parentId: query.parentId };
}

/** One page of a list with its total: `read` picks the columns (the full list, or the tree's), `present` shapes a row. */
async function listedPages<R, P>(
  ctx: Ctx,
  query: PageListInput,
  read: (db: Db, workspaceId: string, spaceId: string, userId: string, filter: ParentFilter, limit: number, offset: number) => Promise<R[]>,
  present: (row: R) => P,
) {
  const { workspaceId, spaceId, limit, page } = query;
  const { userId } = requireActor(ctx);
  const filter = await listFilter(ctx, query);
  const [rows, total] = await Promise.all([
    read(ctx.db, workspaceId, spaceId, userId, filter, limit, (page - 1) * limit),
    pagesRepo.count(ctx.db, workspaceId, spaceId, userId, filter),
  ]);
  return { data: rows.map(present), meta: { page, limit, total } };
}

export function listPages(ctx: Ctx, query: PageListInput) {
  return listedPages(ctx, query, pagesRepo.list, presentPage);
}

/** The same list as a page tree shows it (`view=tree`): fewer columns read, a smaller answer. */
export function listPageTree(ctx: Ctx, query: PageListInput) {
  return listedPages(ctx, query, pagesRepo.listTree, presentTreePage);
}

/** The workspace's most recently edited pages the caller can read, newest first (no content), with their space's name. */
export async function listRecentPages(ctx: Ctx, workspaceId: string, limit: number) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  const rows = await pagesRepo.listRecent(ctx.db, workspaceId, actor.userId, limit);
  return rows.map((r) => ({ ...presentPage(r), spaceName: r.spaceName }));
}

/** What changed, for the history entry's summary. */
function summaryOf(titleChanged: boolean, contentChanged: boolean): string {
  if (titleChanged && contentChanged) return 'Edited title and content';
  return titleChanged ? 'Edited title' : 'Edited content';
}

/**
 * The events of a REST page update: `page.updated` when its title or content changed (with the people the new content
 * newly mentions), `page.moved` when it went under another parent. An icon or a reorder among siblings makes none.
 */
function pageUpdateEvents(
  current: { id: string; workspaceId: string; spaceId: string; parentId: string | null; title: string; content: unknown; version: number },
  patch: PagePatch,
  changed: { titleChanged: boolean; contentChanged: boolean },
): NewEvent[] {
  const base = { workspaceId: current.workspaceId, subject: { type: 'page' as const, id: current.id }, spaceId: current.spaceId, pageId: current.id };
  const title = patch.title ?? current.title;
  const events: NewEvent[] = [];
  if (changed.titleChanged || changed.contentChanged)
    events.push({
      ...base,
      type: 'page.updated',
      data: {
        title,
        version: patch.version,
        titleChanged: changed.titleChanged,
        contentChanged: changed.contentChanged,
        ...(changed.titleChanged ? { from: current.title, to: title } : {}),
        mentionedUserIds: changed.contentChanged ? newlyMentioned(current.content, patch.content) : [],
      },
    });
  if (patch.parentId !== undefined) events.push({ ...base, type: 'page.moved', data: { title, from: current.parentId, to: patch.parentId } });
  return events;
}

export async function updatePage(ctx: Ctx, pageId: string, input: z.infer<typeof PageUpdateBody>) {
  return (await updatePageIfMatch(ctx, pageId, input)).page;
}

/**
 * `updatePage` guarded by an `If-Match` header: when given and the page has moved on since that version, 412
 * PRECONDITION_FAILED with the current version's tag and `updatedAt`, and nothing is written. Returns the new tag.
 */
export async function updatePageIfMatch(ctx: Ctx, pageId: string, input: z.infer<typeof PageUpdateBody>, ifMatch?: string) {
  const actor = requireActor(ctx);
  const { page: ref } = await requirePageAccess(ctx, pageId, 'editor', { workspaceId: input.workspaceId });
  const { workspaceId, spaceId } = ref;
  const body = await resolveBody(ctx, input, false);
  const now = ctx.now();
  let live: LiveChange | null = null;
  let newTitle: string | null = null;
  let recorded = 0;
  await ctx.db.transaction().execute(async (trx) => {
    const treeChange = input.parentId !== undefined || placementGiven(input);
    if (treeChange) await pagesRepo.lockSpaceTree(trx, spaceId);
    const current = await pagesRepo.lockWithContent(trx, workspaceId, pageId);
    if (!current) throw notFound('Page', pageId);
    if (current.deletedAt) throw gone('Page', pageId);
    if (ifMatch !== undefined && !ifMatchHolds(ifMatch, current.version))
      throw new AppError('PRECONDITION_FAILED', 'The page was changed since you read it; read it again and reapply your change', {
        field: 'If-Match',
        reason: 'stale',
        etag: pageEtag(current.version),
        updatedAt: current.updatedAt.toISOString(),
      });
    const patch: PagePatch = {};

    let parentId = current.parentId;
    if (input.parentId !== undefined && input.parentId !== current.parentId) {
      if (input.parentId !== null) {
        await checkParent(ctx, trx, workspaceId, spaceId, input.parentId);
        if (await pagesRepo.isSelfOrAncestor(trx, workspaceId, pageId, input.parentId))
          throw validation('parentId', 'cycle', 'A page cannot move under itself or one of its descendants');
      }
      await requireMayCarrySubtree(trx, actor.userId, current, { move: true, parentId: input.parentId });
      parentId = patch.parentId = input.parentId;
    }
    if (placementGiven(input) || patch.parentId !== undefined) {
      const position = await placePosition(trx, { workspaceId, spaceId, parentId, excludeId: pageId, userId: actor.userId }, input);
      if (position !== current.position) patch.position = position;
    }
    if (input.icon !== undefined && input.icon !== current.icon) patch.icon = input.icon;

    const titleChanged = input.title !== undefined && input.title !== current.title;
    const contentChanged = body !== undefined && !body.doc.eq(PMNode.fromJSON(schema, current.content));
    if (titleChanged) {
      patch.title = newTitle = input.title!;
      patch.slug = pageSlug(input.title!);
    }
    if (contentChanged) {
      patch.content = body!.json;
      patch.textContent = body!.text;
      live = await liveChangeOf(ctx, trx, current, body!.json);
      if (live) patch.ydoc = live.state;
    }
    if (titleChanged || contentChanged) {
      patch.version = current.version + 1;
      await historyRepo.beginVersion(trx, current.content, {
        id: newId(),
        workspaceId,
        pageId,
        version: patch.version,
        title: patch.title ?? current.title,
        summary: summaryOf(titleChanged, contentChanged),
        createdBy: actor.userId,
        createdAt: now,
      });
    }
    if (Object.keys(patch).length > 0) await pagesRepo.update(trx, workspaceId, pageId, patch, actor.userId, now);
    const events = pageUpdateEvents(current, patch, { titleChanged, contentChanged });
    await recordEvents(trx, ctx, events);
    recorded = events.length;
  });
  if (recorded) await nudgeEventDispatch(ctx);
  await announceLiveChange(ctx, pageId, live);
  await announceLiveTitle(ctx, pageId, newTitle);
  const row = await pageOrThrow(ctx, workspaceId, pageId);
  return { page: presentPage(row), etag: pageEtag(row.version) };
}
