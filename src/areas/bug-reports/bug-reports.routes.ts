import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createJourneyStore, type JourneyStore, registerJourney } from '../../http/journey.js';
import { ctxOf, type HttpDeps } from '../../http/request-context.js';
import { type Api, BEARER, typed } from '../../http/routes.js';
import { registerSelfCapture, type ServerErrorRecorder } from './bug-reports.capture.js';
import {
  BugAutoBody,
  BugAutoResult,
  BugCreateBody,
  BugDeleted,
  BugIdBody,
  BugListBody,
  BugListResult,
  BugReport,
  BugUpdateBody,
  ok,
} from './bug-reports.schema.js';
import { autoReport, createBugReport, deleteBugReport, getBugReport, listBugReports, updateBugReport } from './bug-reports.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The journey store and the 5xx recorder (tests wait on `recorder.idle()`). */
    bugReports: { journeys: JourneyStore; recorder: ServerErrorRecorder };
  }
}

const okBody = <T>(data: T, status = 200) => ({ data, success: true as const, status });

/**
 * `{ data, success, status }` on every bug-report answer: errors keep their `error` body and gain
 * `success: false` and `status` (the HTTP code), whichever hook or handler produced them.
 */
function envelopeErrors(scope: Api) {
  scope.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    try {
      const body = JSON.parse(payload);
      if (body && typeof body === 'object' && 'error' in body && !('success' in body))
        return JSON.stringify({ ...body, success: false, status: reply.statusCode });
    } catch {
      // not JSON: leave it
    }
    return payload;
  });
}

/** The six bug-report operations (all POST, no version segment). */
export function bugReportsRoutes(app: Api, deps: HttpDeps, journeys: JourneyStore) {
  const tags = ['bug-reports'];
  const security = BEARER;
  envelopeErrors(app);
  app.post(
    '/bug-reports/list',
    {
      config: { reads: true },
      schema: {
        tags,
        security,
        summary: 'Reports of the workspaces the caller administers, newest first (summary form)',
        body: BugListBody,
        response: { 200: BugListResult },
      },
    },
    async (req) => okBody(await listBugReports(ctxOf(req, deps), req.body)),
  );
  app.post(
    '/bug-reports/get',
    {
      config: { reads: true },
      schema: { tags, security, summary: 'A full bug report (admin of its workspace)', body: BugIdBody, response: { 200: ok(BugReport) } },
    },
    async (req) => okBody(await getBugReport(ctxOf(req, deps), req.body.bugReportId)),
  );
  app.post(
    '/bug-reports/create',
    {
      schema: {
        tags,
        security,
        summary: "A user-made report (admin); the caller's recent requests are attached as userJourney",
        body: BugCreateBody,
        response: { 201: ok(BugReport) },
      },
    },
    async (req, reply) => reply.status(201).send(okBody(await createBugReport(ctxOf(req, deps), req.body, journeys), 201)),
  );
  app.post(
    '/bug-reports/auto',
    {
      schema: {
        tags,
        security,
        summary: 'An automatically captured error (any member); 201 new, 200 when an open report of the last 24 h absorbed it',
        body: BugAutoBody,
        response: { 200: ok(BugAutoResult), 201: ok(BugAutoResult) },
      },
    },
    async (req, reply) => {
      const data = await autoReport(ctxOf(req, deps), req.body);
      const status = data.deduplicated ? 200 : 201;
      return reply.status(status).send(okBody(data, status));
    },
  );
  app.post(
    '/bug-reports/update',
    { schema: { tags, security, summary: 'Change title, description, severity or status (admin)', body: BugUpdateBody, response: { 200: ok(BugReport) } } },
    async (req) => okBody(await updateBugReport(ctxOf(req, deps), req.body)),
  );
  app.post(
    '/bug-reports/delete',
    { schema: { tags, security, summary: 'Soft delete (admin): gone from list and get', body: BugIdBody, response: { 200: BugDeleted } } },
    async (req) => okBody(await deleteBugReport(ctxOf(req, deps), req.body.bugReportId)),
  );
}

/**
 * Everything bug reports add to the app: the user-journey recorder (memory, or Redis when given), the self-capture
 * of 5xx answers, and the routes under `/api` (no version segment). Call on the root instance.
 */
export function registerBugReports(
  app: FastifyInstance,
  deps: HttpDeps,
  redis?: Redis,
  keyPrefix?: string,
): { journeys: JourneyStore; recorder: ServerErrorRecorder } {
  const journeys = createJourneyStore(redis, keyPrefix ? `${keyPrefix}-journey` : undefined, app.log);
  registerJourney(app, journeys);
  const recorder = registerSelfCapture(app, deps.database.db);
  app.register(async (scope) => bugReportsRoutes(typed(scope), deps, journeys), { prefix: '/api' });
  app.decorate('bugReports', { journeys, recorder });
  return { journeys, recorder };
}
