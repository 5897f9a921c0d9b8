import type { FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';
import { ctxOf } from '../../http/request-context.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { WorkspaceIdParams } from '../../schema.js';
import { ResearchCancelResult, ResearchCreateBody, ResearchJob, ResearchList, ResearchListQuery, ResearchParams, ResearchReport } from './research.schema.js';
import { cancelResearch, createResearch, getReport, getResearch, listResearch } from './research.service.js';

/** A research limit answer carries Retry-After and the limit it hit (X-RateLimit-*), as the interface's rule 1 asks. */
async function withLimitHeaders<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && err.code === 'RATE_LIMITED' && typeof err.details.retryAfter === 'number') {
      const retryAfter = err.details.retryAfter;
      reply
        .header('retry-after', String(retryAfter))
        .header('x-ratelimit-limit', String(err.details.limit))
        .header('x-ratelimit-remaining', '0')
        .header('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + retryAfter));
    }
    throw err;
  }
}

/** Research jobs (bare bodies, no version segment): registered under `/api` only. */
export const researchRoutes: AreaRoutes = (app, deps) => {
  const tags = ['research'];
  const security = BEARER;
  app.post(
    '/workspaces/:workspaceId/research',
    {
      schema: {
        tags,
        security,
        summary: 'Start a research job (editor); 429 past 5 active or 10 an hour per workspace',
        params: WorkspaceIdParams,
        body: ResearchCreateBody,
        response: { 201: ResearchJob },
      },
    },
    async (req, reply) => {
      const job = await withLimitHeaders(reply, () => createResearch(ctxOf(req, deps), req.params.workspaceId, req.body));
      return reply.status(201).send(job);
    },
  );
  app.get(
    '/workspaces/:workspaceId/research',
    {
      schema: {
        tags,
        security,
        summary: 'Research jobs of the workspace, newest first',
        params: WorkspaceIdParams,
        querystring: ResearchListQuery,
        response: { 200: ResearchList },
      },
    },
    async (req) => listResearch(ctxOf(req, deps), req.params.workspaceId, req.query),
  );
  app.get(
    '/workspaces/:workspaceId/research/:jobId',
    { schema: { tags, security, summary: 'A research job’s status view', params: ResearchParams, response: { 200: ResearchJob } } },
    async (req) => getResearch(ctxOf(req, deps), req.params.workspaceId, req.params.jobId),
  );
  app.get(
    '/workspaces/:workspaceId/research/:jobId/report',
    {
      schema: {
        tags,
        security,
        summary: 'The report of a completed job (404 before, with details.status)',
        params: ResearchParams,
        response: { 200: ResearchReport },
      },
    },
    async (req) => getReport(ctxOf(req, deps), req.params.workspaceId, req.params.jobId),
  );
  app.post(
    '/workspaces/:workspaceId/research/:jobId/cancel',
    { schema: { tags, security, summary: 'Cancel a research job (editor)', params: ResearchParams, response: { 200: ResearchCancelResult } } },
    async (req) => cancelResearch(ctxOf(req, deps), req.params.workspaceId, req.params.jobId),
  );
};
