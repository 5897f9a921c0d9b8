import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RECORD_JSON_DEPTH } from './json-body.js';
import type { HttpDeps } from './request-context.js';

export type AreaRoutes = (app: Api, deps: HttpDeps) => void;
export type Api = ReturnType<typeof typed>;

export const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/** Bearer security requirement for the OpenAPI document. */
export const BEARER = [{ bearer: [] }];

/**
 * Registers the v1 resources once per prefix from the same route definitions: `/api/v1/<resource>` (documented)
 * and `/api/<resource>` (an alias, hidden from the OpenAPI document).
 */
export function registerVersioned(app: FastifyInstance, deps: HttpDeps, areas: AreaRoutes[]) {
  for (const [prefix, alias] of [
    ['/api/v1', false],
    ['/api', true],
  ] as const) {
    app.register(
      async (scope) => {
        if (alias)
          scope.addHook('onRoute', (route) => {
            route.schema = { ...route.schema, hide: true };
          });
        for (const area of areas) area(typed(scope), deps);
      },
      { prefix },
    );
  }
}

/**
 * An area whose bodies are records, never content (accounts, keys, workspaces, members, spaces, groups): each of
 * its routes takes at most `SMALL_BODY_LIMIT_BYTES` (or `BODY_LIMIT_BYTES` if smaller) and `RECORD_JSON_DEPTH` levels of JSON, unless it sets its own.
 * The routes live in a child scope so the limits reach no other area's routes.
 */
export function recordRoutes(area: AreaRoutes): AreaRoutes {
  return (app, deps) => {
    app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        const { SMALL_BODY_LIMIT_BYTES, BODY_LIMIT_BYTES } = deps.env.config;
        route.bodyLimit ??= Math.min(SMALL_BODY_LIMIT_BYTES, BODY_LIMIT_BYTES);
        route.config = { ...route.config, jsonDepth: route.config?.jsonDepth ?? RECORD_JSON_DEPTH };
      });
      area(typed(scope), deps);
    });
  };
}
