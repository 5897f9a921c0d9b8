import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { researchRepo } from './research.repo.js';

/** `timeBudget` in minutes: a ceiling on a run, never a wait. */
export const BUDGET = { defaultMinutes: 60, minMinutes: 5, maxMinutes: 24 * 60 };

/** Per workspace: jobs pending or running at once, and jobs created in any rolling hour. */
export const LIMITS = { active: 5, perHour: 10, windowMs: 3600_000 };

export const HOUR_MS = LIMITS.windowMs;

/**
 * Seconds until a running job is expected to finish: from its progress when it has some, never past what its
 * budget leaves; a pending job has its whole budget ahead. `minuteMs` is the length of a budget minute.
 */
export function estimateRemaining(job: { status: string; progress: number; startedAt: Date | null; timeBudget: number }, now: Date, minuteMs: number): number {
  if (job.status !== 'pending' && job.status !== 'running') return 0;
  const budgetS = (job.timeBudget * minuteMs) / 1000;
  if (job.status === 'pending' || !job.startedAt) return Math.round(budgetS);
  const elapsed = Math.max(0, (now.getTime() - job.startedAt.getTime()) / 1000);
  const left = Math.max(0, budgetS - elapsed);
  if (job.progress <= 1) return Math.round(left);
  const byProgress = (elapsed * (100 - job.progress)) / job.progress;
  return Math.round(Math.min(left, byProgress));
}

const rateLimited = (message: string, details: { limit: number; retryAfter: number; reason: string }) => new AppError('RATE_LIMITED', message, details);

/**
 * Checks both limits for a new job. Call inside the create transaction after `researchRepo.lockWorkspace`, so
 * concurrent creates of one workspace count one after another and cannot pass the limits together.
 * `details.retryAfter` (seconds) is when a retry can succeed: the hourly limit frees a place when the oldest job of
 * the window leaves it; the active limit when the active job expected to end first ends.
 */
export async function checkCreateLimits(trx: Db, workspaceId: string, now: Date, minuteMs: number) {
  const active = await researchRepo.active(trx, workspaceId);
  if (active.length >= LIMITS.active) {
    const soonest = Math.min(...active.map((j) => estimateRemaining(j, now, minuteMs)));
    const retryAfter = Math.max(1, Math.ceil(soonest));
    throw rateLimited(`This workspace already has ${LIMITS.active} research jobs pending or running; retry when one finishes`, {
      limit: LIMITS.active,
      retryAfter,
      reason: 'active_jobs',
    });
  }
  const recent = await researchRepo.createdSince(trx, workspaceId, new Date(now.getTime() - LIMITS.windowMs));
  if (recent.length >= LIMITS.perHour) {
    // The (n - limit + 1)-th oldest must leave the window for the count to drop below the limit.
    const freeing = recent[recent.length - LIMITS.perHour];
    const retryAfter = Math.max(1, Math.ceil((freeing.createdAt.getTime() + LIMITS.windowMs - now.getTime()) / 1000));
    throw rateLimited(`This workspace has created ${LIMITS.perHour} research jobs in the last hour; retry in ${retryAfter} s`, {
      limit: LIMITS.perHour,
      retryAfter,
      reason: 'hourly_jobs',
    });
  }
}
