import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.js';
import { toAppError } from '../http/errors.js';
import { ctxOf, type HttpDeps } from '../http/request-context.js';
import { callTool, errorResult, toolResult } from './call.js';
import { instructions } from './instructions.js';
import type { ToolRegistry } from './registry.js';
import { PAGE_URI_TEMPLATE, readPageResource, recentPages } from './resources.js';
import { CAPABILITIES, SERVER_INFO } from './server-info.js';
import type { ToolEnv } from './tool.js';

/** JSON-RPC code of "resource not found" in the MCP specification. */
const RESOURCE_NOT_FOUND = -32002;

/** An MCP server for one request, acting as its caller, over the shared registry. */
export function mcpServerFor(registry: ToolRegistry, ctx: Ctx, env: ToolEnv): Server {
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: instructions(registry) });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: registry.list().map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: t.annotations,
      _meta: { category: t.category },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (!registry.get(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}"`, { code: 'NOT_FOUND', tool: name });
    try {
      return toolResult(await callTool(registry, ctx, env, name, args));
    } catch (err) {
      const { result, error } = errorResult(err);
      if (error.status >= 500) ctx.log.error({ err, tool: name }, 'mcp: tool failed');
      return result;
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await recentPages(ctx) }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: PAGE_URI_TEMPLATE, name: 'page', title: 'A page as Markdown', mimeType: 'text/markdown' }],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return { contents: [await readPageResource(ctx, request.params.uri)] };
    } catch (err) {
      const e = toAppError(err as Error);
      if (e.status >= 500) throw err;
      const code = e.code === 'NOT_FOUND' || e.code === 'DELETED' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
      throw new McpError(code, `${e.code}: ${e.message}`, { code: e.code, uri: request.params.uri });
    }
  });

  return server;
}

function methodNotAllowed(reply: FastifyReply) {
  return reply
    .status(405)
    .header('allow', 'POST')
    .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless; send JSON-RPC requests with POST' }, id: null });
}

/**
 * The standard MCP Streamable HTTP transport at `/api/mcp`, stateless: per request a new server and transport
 * (JSON responses, no session), connected, handed the parsed body, both closed when the response closes. The request
 * gate has already authenticated the caller.
 */
export function mcpTransportRoutes(app: FastifyInstance, deps: HttpDeps, registry: ToolRegistry, env: ToolEnv) {
  const schema = {
    tags: ['mcp'],
    security: [{ bearer: [] }],
    summary: 'MCP Streamable HTTP (stateless, JSON responses): tools/list, tools/call, resources/list, resources/read',
  };
  app.post('/api/mcp', { schema }, async (req, reply) => {
    const server = mcpServerFor(registry, ctxOf(req, deps), env);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Headers set so far (request id, rate limit, security) go out on the raw response the transport writes.
    for (const [key, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(key, value as string);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      req.log.error({ err }, 'mcp: request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: ErrorCode.InternalError, message: 'Internal error' }, id: null }));
      }
    }
  });
  app.get('/api/mcp', { schema: { ...schema, summary: 'Not used: the server is stateless (405)' } }, async (_req, reply) => methodNotAllowed(reply));
  app.delete('/api/mcp', { schema: { ...schema, summary: 'Not used: the server is stateless (405)' } }, async (_req, reply) => methodNotAllowed(reply));
}
