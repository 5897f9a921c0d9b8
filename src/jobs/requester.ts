import type { FastifyBaseLogger } from 'fastify';
import type { Ctx } from '../context.js';
import { createLogger } from '../logging.js';
import type { JobContext } from './worker.js';

const loggers = new Map<string, FastifyBaseLogger>();

/** A Ctx acting as the user who asked for a job: the job reads and writes what they may, no more. */
export function requesterCtx(jc: JobContext, userId: string, name: string): Ctx {
  let log = loggers.get(name);
  if (!log) {
    log = createLogger(jc.env.config, name) as unknown as FastifyBaseLogger;
    loggers.set(name, log);
  }
  return { db: jc.db, actor: { userId, via: 'jwt', apiKeyId: null }, log, now: () => new Date(), env: jc.env };
}
