import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
