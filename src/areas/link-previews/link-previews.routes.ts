import type { ServiceEnv } from '../../context.js';
import { ctxOf } from '../../http/request-context.js';
import { enforce, RateLimiter } from '../../http/rate-limit.js';
import { type AreaRoutes, BEARER } from '../../http/routes.js';
import { LinkPreviewQuery, LinkPreviewResult } from './link-previews.schema.js';
import { previewLink } from './link-previews.service.js';

/** One preview limiter per running service (both prefixes share it): each preview may cost an outbound request. */
const limiters = new WeakMap<ServiceEnv, RateLimiter>();
function limiterOf(env: ServiceEnv): RateLimiter {
  const known = limiters.get(env);
  if (known) return known;
  const limiter = new RateLimiter(env.config.LINK_PREVIEW_RATE_LIMIT_MAX, 60, undefined, 'kb-rl-preview', 'link-preview');
  limiters.set(env, limiter);
  return limiter;
}

/** Link previews for link cards under `/api/v1/link-preview` (and the `/api` alias). */
export const linkPreviewsRoutes: AreaRoutes = (app, deps) => {
  app.get(
    '/link-preview',
    {
      schema: {
        tags: ['pages'],
        security: BEARER,
        summary:
          'Title, description, site name and icon of a web page, for a link card (member of the workspace); fetched by the server with the research address rules (422 for a loopback or private address), cached; a page that cannot be read gives its host only; 429 past LINK_PREVIEW_RATE_LIMIT_MAX a minute per user',
        querystring: LinkPreviewQuery,
        response: { 200: LinkPreviewResult },
      },
    },
    async (req, reply) => {
      const ctx = ctxOf(req, deps);
      if (ctx.actor) enforce(reply, await limiterOf(deps.env).hit(ctx.actor.userId));
      return { data: await previewLink(ctx, req.query) };
    },
  );
};
