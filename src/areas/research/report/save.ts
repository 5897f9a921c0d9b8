import { sql } from 'kysely';
import type { Ctx } from '../../../context.js';
import { newId } from '../../../ids.js';
import { createPage } from '../../pages/pages.service.js';
import { spacesRepo } from '../../spaces/spaces.repo.js';
import { firstFreeSlug } from '../../spaces/spaces.service.js';
import { researchRepo } from '../research.repo.js';

export const RESEARCH_SPACE_NAME = 'Research';

/**
 * The workspace's "Research" space (by name, case-insensitive), made public on first use. Made under the
 * workspace row lock, so two jobs finishing together make one.
 */
export async function researchSpaceId(ctx: Ctx, workspaceId: string): Promise<string> {
  return ctx.db.transaction().execute(async (trx) => {
    await researchRepo.lockWorkspace(trx, workspaceId);
    const existing = await trx
      .selectFrom('spaces')
      .select('id')
      .where('workspaceId', '=', workspaceId)
      .where(sql`lower(name)`, '=', RESEARCH_SPACE_NAME.toLowerCase())
      .orderBy('createdAt')
      .orderBy('id')
      .executeTakeFirst();
    if (existing) return existing.id;
    const id = newId();
    const slug = firstFreeSlug('research', await spacesRepo.slugsLike(trx, workspaceId, 'research'));
    await spacesRepo.insert(trx, {
      id,
      workspaceId,
      name: RESEARCH_SPACE_NAME,
      slug,
      description: 'Reports written by research jobs',
      icon: null,
      visibility: 'public',
      createdBy: ctx.actor!.userId,
    });
    return id;
  });
}

const titleOf = (topic: string) => {
  const t = `Research: ${topic.replace(/\s+/g, ' ').trim()}`;
  return t.length > 500 ? `${t.slice(0, 499)}…` : t;
};

/**
 * Saves the report as a page through the pages service, acting as the job's creator (`ctx`): in `targetSpaceId`,
 * else the Research space. Returns the page id, or why it could not be saved (the report is kept either way).
 */
export async function saveReportPage(
  ctx: Ctx,
  job: { workspaceId: string; topic: string; targetSpaceId: string | null },
  markdown: string,
): Promise<{ pageId: string | null; note?: string }> {
  try {
    const spaceId = job.targetSpaceId ?? (await researchSpaceId(ctx, job.workspaceId));
    const page = await createPage(ctx, { workspaceId: job.workspaceId, spaceId, title: titleOf(job.topic), markdown });
    return { pageId: page.id };
  } catch (err) {
    return { pageId: null, note: `The report could not be saved as a page: ${err instanceof Error ? err.message : String(err)}` };
  }
}
