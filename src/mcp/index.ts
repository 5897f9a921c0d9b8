import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { PageChangeFeed } from '../areas/events/page-changes.js';
import type { JourneyStore } from '../http/journey.js';
import type { HttpDeps } from '../http/request-context.js';
import { mcpStandardRoutes } from './mcp.routes.js';
import { toolRegistry } from './registry.js';
import { mcpTransportRoutes } from './streamable.js';

/**
 * The tool protocol: `/api/mcp-standard/*` (documented) and `/mcp-standard/*` (the same, hidden from OpenAPI), and the
 * standard MCP transport at `/api/mcp`. One registry serves all three; `/api/mcp`'s subscriptions hear this instance's
 * page-change feed (fed through Redis when the app has it).
 */
export function registerMcp(app: FastifyInstance, deps: HttpDeps, journeys: JourneyStore, redis?: Redis) {
  const registry = toolRegistry();
  const changes = new PageChangeFeed(redis, app.log);
  changes.start();
  app.decorate('pageChanges', changes);
  app.addHook('preClose', async () => changes.close());
  for (const [prefix, hide] of [
    ['/api/mcp-standard', false],
    ['/mcp-standard', true],
  ] as const)
    app.register(async (scope) => mcpStandardRoutes(scope, deps, registry, journeys, hide), { prefix });
  app.register(async (scope) => mcpTransportRoutes(scope, deps, registry, { catalog: registry, journeys }, changes));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's page-change feed, which `/api/mcp` subscriptions hear (areas/events/page-changes). */
    pageChanges: PageChangeFeed;
  }
}
