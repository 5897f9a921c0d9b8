import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import type { ResearchRepositoryConfig, ResearchSource } from '../../db/tables/research.js';
import { AppError, missingRequired, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { enqueue, requestCancel } from '../../jobs/queue.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { checkCreateLimits } from './research.limits.js';
import { presentJob, presentListItem, presentReport } from './research.present.js';
import { researchRepo } from './research.repo.js';
import { RESEARCH_JOB_KIND } from './research.runner.js';
import type { ResearchCreateBody, ResearchListQuery } from './research.schema.js';
import { checkRepositoryUrl } from './sources/repository.js';

const minuteMs = (ctx: Ctx) => ctx.env.config.RESEARCH_BUDGET_MINUTE_MS;

/** A failed attempt is retried this many times in all (a database hiccup); a source's own failure is not a failure. */
const MAX_ATTEMPTS = 3;

/**
 * Editors create jobs. The job row and its queue job are written in one transaction, after the workspace row is
 * locked and the limits counted (5 active, 10 an hour), so concurrent creates cannot pass the limits together.
 */
export async function createResearch(ctx: Ctx, workspaceId: string, input: z.infer<typeof ResearchCreateBody>) {
  const actor = requireActor(ctx);
  await requireWorkspaceRole(ctx, workspaceId, 'editor');
  let sources: ResearchSource[];
  if (input.sources) {
    sources = [...new Set(input.sources)];
    if (sources.includes('repository') && !input.repository) throw missingRequired('repository', 'repository is required when sources include "repository"');
  } else sources = input.repository ? ['docs', 'web', 'repository'] : ['docs', 'web'];
  if (input.targetSpaceId) await requireSpaceRole(ctx, workspaceId, input.targetSpaceId, 'editor');
  let repository: ResearchRepositoryConfig | null = null;
  if (input.repository && sources.includes('repository')) {
    await checkRepositoryUrl(input.repository.url, ctx.env.config);
    repository = { url: input.repository.url, branch: input.repository.branch, paths: input.repository.paths ?? [], maxFiles: input.repository.maxFiles };
  }
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await researchRepo.lockWorkspace(trx, workspaceId))) throw notFound('Workspace', workspaceId);
    const now = ctx.now();
    await checkCreateLimits(trx, workspaceId, now, minuteMs(ctx));
    const jobId = await enqueue(trx, { kind: RESEARCH_JOB_KIND, workspaceId, payload: { researchId: id }, maxAttempts: MAX_ATTEMPTS });
    await researchRepo.insert(trx, {
      id,
      workspaceId,
      createdBy: actor.userId,
      topic: input.topic,
      sources,
      outputMode: input.outputMode,
      timeBudget: input.timeBudget,
      targetSpaceId: input.targetSpaceId ?? null,
      repository,
      jobId,
      createdAt: now,
    });
  });
  return presentJob(await rowOrThrow(ctx, workspaceId, id), ctx.now(), minuteMs(ctx));
}

async function rowOrThrow(ctx: Ctx, workspaceId: string, id: string) {
  const row = await researchRepo.find(ctx.db, workspaceId, id);
  if (!row) throw notFound('Research job', id);
  return row;
}

export async function getResearch(ctx: Ctx, workspaceId: string, id: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  return presentJob(await rowOrThrow(ctx, workspaceId, id), ctx.now(), minuteMs(ctx));
}

/** The report exists only once the job is completed: before (or after a failure or cancel) it is 404 with the status. */
export async function getReport(ctx: Ctx, workspaceId: string, id: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  const row = await rowOrThrow(ctx, workspaceId, id);
  if (row.status !== 'completed' || !row.report)
    throw new AppError('NOT_FOUND', `The report is available once the job is completed; it is ${row.status}`, {
      resource: 'Research report',
      id,
      status: row.status,
      reason: row.status === 'pending' || row.status === 'running' ? 'not_ready' : row.status,
    });
  return presentReport(row);
}

/**
 * Cancels the job whatever its state (the interface's state table: any → cancelled). A pending job never runs; a
 * running one stops at its next step and writes nothing more. `partialResults` tells whether anything had been
 * gathered. Cancelling again answers the same.
 */
export async function cancelResearch(ctx: Ctx, workspaceId: string, id: string) {
  await requireWorkspaceRole(ctx, workspaceId, 'editor');
  return ctx.db.transaction().execute(async (trx) => {
    const row = await researchRepo.lock(trx, workspaceId, id);
    if (!row) throw notFound('Research job', id);
    if (row.status !== 'cancelled') {
      await researchRepo.setCancelled(trx, workspaceId, id, ctx.now());
      if (row.jobId) await requestCancel(trx, row.jobId);
    }
    return { id, status: 'cancelled' as const, partialResults: row.documentsFound > 0 || row.report !== null };
  });
}

export async function listResearch(ctx: Ctx, workspaceId: string, query: z.infer<typeof ResearchListQuery>) {
  await requireWorkspaceRole(ctx, workspaceId, 'viewer');
  const [rows, total] = await Promise.all([
    researchRepo.list(ctx.db, workspaceId, query.status, query.limit, query.offset),
    researchRepo.count(ctx.db, workspaceId, query.status),
  ]);
  return { jobs: rows.map(presentListItem), total, limit: query.limit, offset: query.offset };
}
