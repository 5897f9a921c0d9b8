import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { JourneyStore } from '../http/journey.js';
import { ctxOf, type HttpDeps } from '../http/request-context.js';
import { BEARER, typed } from '../http/routes.js';
import { callTool, toolResult } from './call.js';
import { instructions } from './instructions.js';
import { ScoredToolOut, ToolOut, ToolSearchBody } from './meta.tools.js';
import { seedNamed, type ToolRegistry } from './registry.js';
import { CAPABILITIES, PROTOCOL_VERSION, SERVER_INFO } from './server-info.js';
import type { ToolEnv } from './tool.js';

export const InitializeBody = z.object({
  protocolVersion: z.string().max(50).optional().describe('The protocol version the client speaks'),
  clientInfo: z.object({ name: z.string().max(200), version: z.string().max(100).optional() }).optional(),
  capabilities: z.record(z.string().max(100), z.unknown()).optional(),
});
export const CategoryBody = z.object({ category: z.string().min(1).max(100).describe('A category id from list_categories, e.g. `page`') });
export const CallToolBody = z.object({
  name: z.string().min(1).max(200).describe('Tool name, e.g. `page_create`'),
  arguments: z.record(z.string(), z.unknown()).optional().describe('The tool’s arguments (see its inputSchema)'),
});

const CategoryOut = z.object({ id: z.string(), name: z.string(), description: z.string(), toolCount: z.number() });
const CallToolOut = z.object({
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean(),
});

/**
 * The tool protocol as plain JSON endpoints (all POST): initialize, list_tools, search_tools, list_categories,
 * get_tools_by_category, call_tool. Served at `prefix` (`/api/mcp-standard` and `/mcp-standard`). Tools keep the names the
 * seed's interface gave them here (`knowledge.search`); either name calls the tool.
 */
export function mcpStandardRoutes(app: FastifyInstance, deps: HttpDeps, registry: ToolRegistry, journeys: JourneyStore, hide: boolean) {
  const api = typed(app);
  const tags = ['mcp'];
  const security = BEARER;
  const base = { tags, security, hide };
  const env: ToolEnv = { catalog: registry, journeys };

  api.post(
    '/initialize',
    {
      schema: {
        ...base,
        summary: 'Connection initialisation: protocol version, server info, capabilities and instructions',
        body: InitializeBody,
        response: {
          200: z.object({
            protocolVersion: z.string(),
            serverInfo: z.object({ name: z.string(), title: z.string(), version: z.string() }),
            capabilities: z.record(z.string(), z.unknown()),
            instructions: z.string(),
          }),
        },
      },
    },
    async () => ({ protocolVersion: PROTOCOL_VERSION, serverInfo: SERVER_INFO, capabilities: CAPABILITIES, instructions: instructions(registry) }),
  );
  api.post(
    '/list_tools',
    {
      schema: {
        ...base,
        summary: 'Every tool: name, description, category, inputSchema (JSON Schema), annotations',
        response: { 200: z.object({ tools: z.array(ToolOut) }) },
      },
    },
    async () => ({ tools: registry.list().map(seedNamed) }),
  );
  api.post(
    '/search_tools',
    {
      schema: {
        ...base,
        summary: 'Tools ranked by how well their name, description and category match the query (BM25)',
        body: ToolSearchBody,
        response: { 200: z.object({ tools: z.array(ScoredToolOut) }) },
      },
    },
    async (req) => ({ tools: registry.search(req.body.query, req.body.limit).map(seedNamed) }),
  );
  api.post(
    '/list_categories',
    { schema: { ...base, summary: 'Tool categories with their tool counts', response: { 200: z.object({ categories: z.array(CategoryOut) }) } } },
    async () => ({ categories: registry.categories() }),
  );
  api.post(
    '/get_tools_by_category',
    {
      schema: {
        ...base,
        summary: 'The tools of one category',
        body: CategoryBody,
        response: { 200: z.object({ category: CategoryOut, tools: z.array(ToolOut) }) },
      },
    },
    async (req) => {
      const category = registry.category(req.body.category);
      if (!category) throw notFoundCategory(req.body.category);
      return { category, tools: registry.byCategory(category.id).map(seedNamed) };
    },
  );
  api.post(
    '/call_tool',
    {
      schema: {
        ...base,
        summary: 'Call a tool with its arguments, as the caller: an MCP tool result; errors as REST would answer them',
        body: CallToolBody,
        response: { 200: CallToolOut },
      },
    },
    async (req) => toolResult(await callTool(registry, ctxOf(req, deps), env, req.body.name, req.body.arguments)),
  );
}

const notFoundCategory = (id: string) =>
  new AppError('NOT_FOUND', `Unknown category "${id.slice(0, 100)}"; list_categories shows the categories`, {
    resource: 'Category',
    category: id.slice(0, 100),
  });
