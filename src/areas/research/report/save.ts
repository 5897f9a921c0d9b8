import { type Ctx, requireActor } from '../../../context.js';
import { newId } from '../../../ids.js';
import { createPage } from '../../pages/pages.service.js';
import { spacesRepo } from '../../spaces/spaces.repo.js';
import { firstFreeSlug } from '../../spaces/spaces.service.js';
import { researchRepo } from '../research.repo.js';

/** The name of a user's own research space: "Research (Ann)". */
export const researchSpaceName = (userName: string) => `Research (${userName.replace(/\s+/g, ' ').trim().slice(0, 80) || 'me'})`;

/**
 * The creator's own research space, where a job without `targetSpaceId` saves its report: private, granted to
 * the creator alone (workspace admins see every space), so a report quoting what its creator can read is read by
 * no one who could not read the same. Made on first use under the workspace row lock, so two jobs make one.
 */
export async function creatorResearchSpaceId(ctx: Ctx, workspaceId: string): Promise<string> {
  const userId = requireActor(ctx).userId;
  return ctx.db.transaction().execute(async (trx) => {
    await researchRepo.lockWorkspace(trx, workspaceId);
    const name = researchSpaceName(await researchRepo.userName(trx, userId));
    const existing = await researchRepo.findCreatorSpace(trx, workspaceId, userId, name);
    if (existing) return existing;
    const id = newId();
    const slug = firstFreeSlug('research', await spacesRepo.slugsLike(trx, workspaceId, 'research'));
    await spacesRepo.insert(trx, {
      id,
      workspaceId,
      name,
      slug,
      description: 'Reports written by my research jobs',
      icon: null,
      visibility: 'private',
      createdBy: userId,
    });
    await spacesRepo.upsertGrants(trx, [{ id: newId(), spaceId: id, workspaceId, userId, groupId: null, role: 'admin', addedBy: userId }]);
    return id;
  });
}

const titleOf = (topic: string) => {
  const t = `Research: ${topic.replace(/\s+/g, ' ').trim()}`;
  return t.length > 500 ? `${t.slice(0, 499)}…` : t;
};

/**
 * Saves the report as a page through the pages service, acting as the job's creator (`ctx`), in `spaceId` (the
 * job's target space, or the creator's own research space). Returns the page id, or why it could not be saved
 * (the report is kept either way).
 */
export async function saveReportPage(
  ctx: Ctx,
  job: { workspaceId: string; topic: string },
  spaceId: string,
  markdown: string,
): Promise<{ pageId: string | null; note?: string }> {
  try {
    const page = await createPage(ctx, { workspaceId: job.workspaceId, spaceId, title: titleOf(job.topic), markdown });
    return { pageId: page.id };
  } catch (err) {
    return { pageId: null, note: `The report could not be saved as a page: ${err instanceof Error ? err.message : String(err)}` };
  }
}
