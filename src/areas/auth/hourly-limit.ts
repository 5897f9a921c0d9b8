import { AppError } from '../../errors.js';

export const HOUR_MS = 3600_000;

/** How much of an hourly allowance is used: the rows made in the last hour, and the oldest of them. */
export interface HourlyUse {
  n: number;
  oldest: Date | null;
}

/**
 * Refuses with 429 RATE_LIMITED once `limit` rows were made in the last hour. Counted from the database's own rows, so
 * every instance agrees; `retryAfter` (also the Retry-After header) is when the oldest of them leaves the window.
 */
export function assertUnderHourlyLimit(use: HourlyUse, limit: number, now: Date, what: { message: string; reason: string }): void {
  if (use.n < limit) return;
  const freedAt = (use.oldest?.getTime() ?? now.getTime()) + HOUR_MS;
  const retryAfter = Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000));
  throw new AppError('RATE_LIMITED', `${what.message} (at most ${limit} an hour); try again in ${retryAfter} s`, {
    reason: what.reason,
    limit,
    retryAfter,
  });
}
