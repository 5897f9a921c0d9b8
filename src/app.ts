import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { attachmentsRoutes } from './areas/attachments/attachments.routes.js';
import { auditRoutes } from './areas/audit/audit.routes.js';
import { authRoutes } from './areas/auth/auth.routes.js';
import { Authenticator } from './areas/auth/auth.service.js';
import { oidcRoutes } from './areas/auth/oidc.routes.js';
import { registerBugReports } from './areas/bug-reports/bug-reports.routes.js';
import { registerCollab } from './areas/collab/collab.server.js';
import { commentsRoutes } from './areas/comments/comments.routes.js';
import { exportsRoutes } from './areas/exports/exports.routes.js';
import { goalsRoutes } from './areas/goals/goals.routes.js';
import { groupsRoutes } from './areas/groups/groups.routes.js';
import { importsRoutes } from './areas/imports/imports.routes.js';
import { invitationsRoutes } from './areas/invitations/invitations.routes.js';
import { knowledgeRoutes } from './areas/knowledge/knowledge.routes.js';
import { linkPreviewsRoutes } from './areas/link-previews/link-previews.routes.js';
import { localSyncRoutes } from './areas/local-sync/local-sync.routes.js';
import { memoryRoutes } from './areas/memory/memory.routes.js';
import { registerNotifications } from './areas/notifications/notifications.routes.js';
import { OAuthTokens } from './areas/oauth/oauth.authenticate.js';
import { oauthConnectionsRoutes, registerOAuth } from './areas/oauth/oauth.routes.js';
import { pagesRoutes } from './areas/pages/pages.routes.js';
import { personalPagesRoutes } from './areas/pages/personal/personal.routes.js';
import { restrictionsRoutes } from './areas/pages/restrictions/restrictions.routes.js';
import { pageTitlesRoutes } from './areas/pages/titles/titles.routes.js';
import { projectsRoutes } from './areas/projects/projects.routes.js';
import { researchRoutes } from './areas/research/research.routes.js';
import { searchRoutes } from './areas/search/search.routes.js';
import { registerShareReader } from './areas/shares/reader/reader.routes.js';
import { sharesRoutes } from './areas/shares/shares.routes.js';
import { spacesRoutes } from './areas/spaces/spaces.routes.js';
import { tasksRoutes } from './areas/tasks/tasks.routes.js';
import { templatesRoutes } from './areas/templates/templates.routes.js';
import { usersRoutes } from './areas/users/users.routes.js';
import { webhooksRoutes } from './areas/webhooks/webhooks.routes.js';
import { workspacesRoutes } from './areas/workspaces/workspaces.routes.js';
import type { Config } from './config.js';
import type { ServiceEnv } from './context.js';
import type { Database } from './db/index.js';
import { createServiceEnv } from './env.js';
import { AuthThrottle } from './http/auth-throttle.js';
import { frameworkErrors, registerErrorHandling } from './http/errors.js';
import { registerHealth } from './http/health.js';
import { registerJsonBody } from './http/json-body.js';
import { registerMetrics } from './http/metrics.js';
import { registerOpenApi } from './http/openapi.js';
import { RateLimiter } from './http/rate-limit.js';
import { loggedRequest } from './http/redact-url.js';
import { type HttpDeps, registerRequestGate, requestId } from './http/request-context.js';
import { registerVersioned, typed } from './http/routes.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { zodValidatorCompiler } from './http/validation.js';
import { registerWebApp } from './http/web-app.js';
import { appLoggerOptions } from './logging.js';
import { registerMcp } from './mcp/index.js';

export interface AppDeps {
  /** Settings and collaborators shared with background jobs; made from `config` when absent. */
  env?: ServiceEnv;
  config: Config;
  database: Database;
  /** Shared rate-limit counters (and later, other shared state) when REDIS_URL is set. */
  redis?: Redis;
  /** Logger options, merged over the defaults (level, redaction); `false` for none (tests). */
  logger?: boolean | object;
  /** Prefix of the rate-limit counter keys (tests isolate their counters in a shared Redis). */
  rateLimitKeyPrefix?: string;
}

/** Never log credentials: headers that carry them and body fields that are them. */
const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', '*.password', '*.token', '*.key', '*.apiKey'];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : appLoggerOptions(config, {
            redact: { paths: REDACT, censor: '[redacted]' },
            // Request URLs without the secrets some carry (reset, invitation and share links; OAuth codes).
            serializers: { req: loggedRequest },
            ...(typeof deps.logger === 'object' ? deps.logger : {}),
          }),
    genReqId: requestId,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors,
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  // Response schemas document; presenters shape. Plain JSON keeps serialization off the hot path's bill.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  registerJsonBody(app);

  registerErrorHandling(app);
  registerSecurityHeaders(app);
  await app.register(cors, {
    origin: config.corsOrigins.includes('*') ? true : config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
    // The plugin's default is GET, HEAD and POST: a browser app on another origin could not update or delete.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Content-Disposition',
      'Content-Range',
      'Accept-Ranges',
    ],
    maxAge: 600,
  });

  const env = deps.env ?? createServiceEnv(config);
  // Apps' access tokens: the authenticator's cache, which the services also tell when a connection ends.
  const appTokens = new OAuthTokens(database.db);
  env.connectedApps = appTokens;
  const httpDeps: HttpDeps = {
    database,
    env,
    authenticator: new Authenticator(database.db, env.tokens, appTokens),
    rateLimiter: new RateLimiter(config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW_S, deps.redis, deps.rateLimitKeyPrefix),
    authThrottle: new AuthThrottle(config, deps.redis, deps.rateLimitKeyPrefix),
  };
  // Parses cookies before the request gate, which reads the browser session cookie.
  await app.register(cookie);
  registerRequestGate(app, httpDeps);
  await registerOpenApi(app);

  registerHealth(app, { database, redis: deps.redis, blobs: env.blobs, readyCacheMs: config.HEALTH_READY_CACHE_MS, log: app.log });
  registerMetrics(app, { config, database, redis: deps.redis, keyPrefix: deps.rateLimitKeyPrefix });

  registerVersioned(app, httpDeps, [
    authRoutes,
    oidcRoutes,
    usersRoutes,
    workspacesRoutes,
    invitationsRoutes,
    projectsRoutes,
    tasksRoutes,
    spacesRoutes,
    groupsRoutes,
    searchRoutes,
    pagesRoutes,
    templatesRoutes,
    personalPagesRoutes,
    pageTitlesRoutes,
    restrictionsRoutes,
    commentsRoutes,
    attachmentsRoutes,
    exportsRoutes,
    importsRoutes,
    auditRoutes,
    memoryRoutes,
    knowledgeRoutes,
    sharesRoutes,
    webhooksRoutes,
    linkPreviewsRoutes,
    oauthConnectionsRoutes,
  ]);
  app.register(async (scope) => goalsRoutes(typed(scope), httpDeps), { prefix: '/api' });
  app.register(async (scope) => researchRoutes(typed(scope), httpDeps), { prefix: '/api' });
  app.register(async (scope) => localSyncRoutes(typed(scope), httpDeps), { prefix: '/api' });
  registerNotifications(app, httpDeps, deps.redis);
  registerBugReports(app, httpDeps, deps.redis, deps.rateLimitKeyPrefix);
  registerMcp(app, httpDeps, app.bugReports.journeys, deps.redis);
  env.liveDocuments = registerCollab(app, httpDeps, { redis: deps.redis, keyPrefix: deps.rateLimitKeyPrefix });
  registerShareReader(app, httpDeps);
  registerOAuth(app, httpDeps);
  await registerWebApp(app, config.WEB_DIST_DIR);
  return app;
}
