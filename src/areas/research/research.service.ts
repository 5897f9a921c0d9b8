import type { z } from 'zod';
import { type Ctx, requireActor } from '../../context.js';
import type { ResearchRepositoryConfig, ResearchSource } from '../../db/tables/research.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { enqueue, requestCancel } from '../../jobs/queue.js';
import { requireSpaceRole } from '../spaces/spaces.policy.js';
import { requireWorkspaceRole } from '../workspaces/workspaces.policy.js';
import { checkCreateLimits } from './research.limits.js';
import { type JobReader, jobReader } from './research.policy.js';
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
  // Every source by default; one that cannot be used (no repository given, no search service) is reported as
  // skipped in the report, not refused here.
  const sources: ResearchSource[] = input.sources ? [...new Set(input.sources)] : ['docs', 'web', 'repository'];
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
  const row = await researchRepo.find(ctx.db, workspaceId, id);
  if (!row) throw notFound('Research job', id);
  return presentJob(row, ctx.now(), minuteMs(ctx));
}

/** The job when the reader may see it; 404 otherwise (a job in a space they cannot read does not exist for them). */
async function visibleRow(ctx: Ctx, workspaceId: string, id: string, reader: JobReader) {
  const row = await researchRepo.findVisible(ctx.db, workspaceId, id, reader);
  if (!row) throw notFound('Research job', id);
  return row;
}

export async function getResearch(ctx: Ctx, workspaceId: string, id: string) {
  const reader = await jobReader(ctx, workspaceId, 'viewer');
  return presentJob(await visibleRow(ctx, workspaceId, id, reader), ctx.now(), minuteMs(ctx));
}

/**
 * The report of a completed job, or what a cancelled job had gathered (kept when it was cancelled). Otherwise
 * (pending, running, failed, cancelled with nothing gathered) 404 with the status.
 */
export async function getReport(ctx: Ctx, workspaceId: string, id: string) {
  const reader = await jobReader(ctx, workspaceId, 'viewer');
  const row = await visibleRow(ctx, workspaceId, id, reader);
  if ((row.status !== 'completed' && row.status !== 'cancelled') || !row.report)
    throw new AppError('NOT_FOUND', `The report is available once the job is completed; it is ${row.status}`, {
      resource: 'Research report',
      id,
      status: row.status,
      reason: row.status === 'pending' || row.status === 'running' ? 'not_ready' : row.status,
    });
  return presentReport(row);
}

/**
 * Cancels the job whatever its state (the interface's state table: any → cancelled, with `partialResults: true`).
 * A pending job never runs; a running one stops at its next step and keeps what it had gathered as a partial
 * report; a completed one keeps its report and page. Cancelling again answers the same.
 */
export async function cancelResearch(ctx: Ctx, workspaceId: string, id: string) {
  const reader = await jobReader(ctx, workspaceId, 'editor');
  await visibleRow(ctx, workspaceId, id, reader);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await researchRepo.lock(trx, workspaceId, id);
    if (!row) throw notFound('Research job', id);
    if (row.status !== 'cancelled') {
      await researchRepo.setCancelled(trx, workspaceId, id, ctx.now());
      if (row.jobId) await requestCancel(trx, row.jobId);
    }
    return { id, status: 'cancelled' as const, partialResults: true };
  });
}

/** The jobs the caller may see (see research.policy.ts), newest first. */
export async function listResearch(ctx: Ctx, workspaceId: string, query: z.infer<typeof ResearchListQuery>) {
  const reader = await jobReader(ctx, workspaceId, 'viewer');
  const [rows, total] = await Promise.all([
    researchRepo.list(ctx.db, workspaceId, reader, query.status, query.limit, query.offset),
    researchRepo.count(ctx.db, workspaceId, reader, query.status),
  ]);
  return { jobs: rows.map(presentListItem), total, limit: query.limit, offset: query.offset };
}
