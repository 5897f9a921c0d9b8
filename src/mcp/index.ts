import type { FastifyInstance } from 'fastify';
import type { JourneyStore } from '../http/journey.js';
import type { HttpDeps } from '../http/request-context.js';
import { mcpStandardRoutes } from './mcp.routes.js';
import { toolRegistry } from './registry.js';
import { mcpTransportRoutes } from './streamable.js';

/**
 * The tool protocol: `/api/mcp-standard/*` (documented) and `/mcp-standard/*` (the same, hidden from OpenAPI), and the
 * standard MCP transport at `/api/mcp`. One registry serves all three.
 */
export function registerMcp(app: FastifyInstance, deps: HttpDeps, journeys: JourneyStore) {
  const registry = toolRegistry();
  for (const [prefix, hide] of [
    ['/api/mcp-standard', false],
    ['/mcp-standard', true],
  ] as const)
    app.register(async (scope) => mcpStandardRoutes(scope, deps, registry, journeys, hide), { prefix });
  app.register(async (scope) => mcpTransportRoutes(scope, deps, registry, { catalog: registry, journeys }));
}
