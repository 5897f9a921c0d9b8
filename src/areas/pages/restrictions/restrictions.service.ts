import type { z } from 'zod';
import { type Ctx, requireActor } from '../../../context.js';
import { AppError, gone, notFound } from '../../../errors.js';
import { recordAudit } from '../../audit/audit.record.js';
import { memberRole, memberScope, requireWorkspaceRole } from '../../workspaces/workspaces.policy.js';
import { requirePageAccess } from '../pages.policy.js';
import { pagesRepo } from '../pages.repo.js';
import { type PageAccessFacts, presentAccess, presentRestrictedPage } from './restrictions.present.js';
import { type GrantInput, restrictionsRepo } from './restrictions.repo.js';
import type { RestrictionPutBody } from './restrictions.schema.js';

/** At most this many people in "who has access"; more sets `peopleTruncated`. */
export const PEOPLE_LIMIT = 200;

/**
 * Who may look at or change a page's restriction: a workspace admin always (even when the page is closed to them,
 * though that does not let them read it), anyone else with `min` on the page itself (404 when it is closed to them).
 */
async function requireRestrictionAccess(ctx: Ctx, pageId: string, min: 'viewer' | 'editor') {
  const actor = requireActor(ctx);
  const ref = await ctx.db
    .selectFrom('pages as p')
    .innerJoin('spaces as s', 's.id', 'p.spaceId')
    .select(['p.id', 'p.workspaceId', 'p.spaceId', 'p.title', 'p.deletedAt', 's.name as spaceName', 's.visibility'])
    .where('p.id', '=', pageId)
    .executeTakeFirst();
  if (!ref) throw notFound('Page', pageId);
  const { role } = await memberRole(ctx.db, ref.workspaceId, memberScope(actor));
  if (role === 'admin') {
    if (ref.deletedAt) throw gone('Page', pageId);
    return { page: ref, workspaceAdmin: true };
  }
  await requirePageAccess(ctx, pageId, min);
  return { page: ref, workspaceAdmin: false };
}

type PageOfAccess = Awaited<ReturnType<typeof requireRestrictionAccess>>['page'];

/** The facts "who has access" is drawn from, read on `db` (the transaction of a change, so it answers the new state). */
async function accessFacts(db: Ctx['db'], page: PageOfAccess): Promise<PageAccessFacts> {
  const own = await restrictionsRepo.findOwn(db, page.id);
  const [grants, inherited, pathGrants, readers] = await Promise.all([
    own ? restrictionsRepo.grantsOf(db, page.id) : Promise.resolve(null),
    restrictionsRepo.inheritedOf(db, page.id),
    restrictionsRepo.pathGrants(db, page.id),
    restrictionsRepo.spaceReaders(db, { workspaceId: page.workspaceId, spaceId: page.spaceId, visibility: page.visibility, pageId: page.id }, PEOPLE_LIMIT + 1),
  ]);
  return { page, grants, inherited, pathGrants, readers: readers.slice(0, PEOPLE_LIMIT), truncated: readers.length > PEOPLE_LIMIT };
}

/** The page's restriction, the ones it inherits, and who can open it and why. */
export async function getPageAccess(ctx: Ctx, pageId: string) {
  const { page } = await requireRestrictionAccess(ctx, pageId, 'viewer');
  return presentAccess(await accessFacts(ctx.db, page));
}

/** 422 VALIDATION_ERROR on `grants` with a reason and the offending ids. */
const badGrants = (reason: string, message: string, ids: string[] = []) => new AppError('VALIDATION_ERROR', message, { field: 'grants', reason, ids });

/** Grantees once each, all of the workspace (users members, groups its own). */
async function checkGrantees(ctx: Ctx, workspaceId: string, grants: GrantInput[]) {
  const userIds = grants.flatMap((g) => (g.userId ? [g.userId] : []));
  const groupIds = grants.flatMap((g) => (g.groupId ? [g.groupId] : []));
  const dup = [...userIds, ...groupIds].filter((id, i, all) => all.indexOf(id) !== i);
  if (dup.length) throw badGrants('duplicate', 'Each user or group may appear once among the grants', [...new Set(dup)]);
  const [members, groups] = await Promise.all([
    restrictionsRepo.membersAmong(ctx.db, workspaceId, userIds),
    restrictionsRepo.groupsAmong(ctx.db, workspaceId, groupIds),
  ]);
  const strangers = userIds.filter((id) => !members.has(id));
  if (strangers.length) throw badGrants('not_a_member', 'Grants may name only members of the workspace', strangers);
  const foreign = groupIds.filter((id) => !groups.has(id));
  if (foreign.length) throw badGrants('unknown_group', 'Grants may name only groups of the workspace', foreign);
}

/** Would the grants leave the acting user able to edit the page (directly or through a group)? */
async function keepsEditor(ctx: Ctx, workspaceId: string, userId: string, grants: GrantInput[]): Promise<boolean> {
  if (grants.some((g) => g.userId === userId && g.role === 'editor')) return true;
  const editorGroups = grants.flatMap((g) => (g.groupId && g.role === 'editor' ? [g.groupId] : []));
  return (await restrictionsRepo.groupsOfUserAmong(ctx.db, workspaceId, userId, editorGroups)).size > 0;
}

/** A short account of the grants for the audit log (counts, and the grantees themselves up to 20). */
function grantsSummary(grants: GrantInput[]) {
  return {
    grantCount: grants.length,
    editors: grants.filter((g) => g.role === 'editor').length,
    viewers: grants.filter((g) => g.role === 'viewer').length,
    grants: grants.slice(0, 20).map((g) => (g.userId ? { userId: g.userId, role: g.role } : { groupId: g.groupId, role: g.role })),
  };
}

/**
 * Restricts the page (or replaces its grants). Editors of the page and workspace admins may; anyone else but a
 * workspace admin must stay in as editor (422 `would_lock_out_self`). Audited as `page_restriction.set`.
 */
export async function restrictPage(ctx: Ctx, pageId: string, input: z.infer<typeof RestrictionPutBody>) {
  const actor = requireActor(ctx);
  const { page, workspaceAdmin } = await requireRestrictionAccess(ctx, pageId, 'editor');
  const grants: GrantInput[] = input.grants.map((g) => ({ userId: g.userId ?? null, groupId: g.groupId ?? null, role: g.role }));
  await checkGrantees(ctx, page.workspaceId, grants);
  if (!workspaceAdmin && !(await keepsEditor(ctx, page.workspaceId, actor.userId, grants)))
    throw badGrants('would_lock_out_self', 'These grants would shut you out of the page: grant yourself (or a group you are in) editor', [actor.userId]);
  return ctx.db.transaction().execute(async (trx) => {
    // Exclusive like a move: no page is created under or moved into the subtree while its rows are written.
    await pagesRepo.lockSpaceTree(trx, page.spaceId);
    const replaced = await restrictionsRepo.put(trx, { workspaceId: page.workspaceId, pageId, by: actor.userId, now: ctx.now() }, grants);
    await recordAudit(trx, ctx, {
      workspaceId: page.workspaceId,
      action: 'page_restriction.set',
      targetType: 'page',
      targetId: pageId,
      details: { ...grantsSummary(grants), replaced, asWorkspaceAdmin: workspaceAdmin },
    });
    return presentAccess(await accessFacts(trx, page));
  });
}

/** Removes the page's own restriction (those it inherits stay); nothing to do when it has none. Audited as `page_restriction.removed`. */
export async function unrestrictPage(ctx: Ctx, pageId: string) {
  const { page, workspaceAdmin } = await requireRestrictionAccess(ctx, pageId, 'editor');
  return ctx.db.transaction().execute(async (trx) => {
    if (await restrictionsRepo.remove(trx, pageId))
      await recordAudit(trx, ctx, {
        workspaceId: page.workspaceId,
        action: 'page_restriction.removed',
        targetType: 'page',
        targetId: pageId,
        details: { asWorkspaceAdmin: workspaceAdmin },
      });
    return presentAccess(await accessFacts(trx, page));
  });
}

/** The workspace's restricted pages (workspace admins only), the trash included. */
export async function listRestrictedPages(ctx: Ctx, workspaceId: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'admin');
  return (await restrictionsRepo.listOfWorkspace(ctx.db, workspaceId)).map(presentRestrictedPage);
}
