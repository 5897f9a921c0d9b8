import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  type AuthInfo,
  createMcpHandler,
  inputRequired,
  inputResponse,
  isLegacyRequest,
  type ListToolsResult,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PageChangeFeed } from '../areas/events/page-changes.js';
import type { Ctx } from '../context.js';
import { toAppError } from '../http/errors.js';
import { ctxOf, type HttpDeps } from '../http/request-context.js';
import { callTool, errorResult, toolResult } from './call.js';
import { instructions } from './instructions.js';
import type { ToolDescriptor, ToolRegistry } from './registry.js';
import { PAGE_URI_TEMPLATE, pageLinks, readPageResource, recentPages } from './resources.js';
import { CAPABILITIES, MODERN_CAPABILITIES, SERVER_INFO } from './server-info.js';
import { pageChangeBus, refusedListen } from './subscriptions.js';
import { answeredAsTask, LONG_JOBS, TASKS_CAPABILITY } from './tasks.js';
import { type AnyTool, confirmationOf, type ToolEnv } from './tool.js';

/** The argument a tool that asks first takes on `/api/mcp`: `confirm: true` says the person already agreed. */
const CONFIRM_ARGUMENT = {
  type: 'boolean',
  description: 'The person has agreed to this already: run without asking (a client that can ask is asked first otherwise)',
};
const ConfirmAnswer = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const, title: 'Go ahead' } }, required: ['confirm'] };

/** A tool's input schema as `/api/mcp` lists it: with `confirm` for a tool that asks first. */
function listedInput(tool: AnyTool, schema: ToolDescriptor['inputSchema']) {
  if (!tool.confirm && !tool.annotations.destructiveHint) return schema;
  return { ...schema, properties: { ...schema.properties, confirm: CONFIRM_ARGUMENT } };
}

/** An MCP server for one request, acting as its caller, over the shared registry. */
export function mcpServerFor(registry: ToolRegistry, ctx: Ctx, env: ToolEnv, era: 'modern' | 'legacy'): Server {
  const capabilities = era === 'modern' ? MODERN_CAPABILITIES : { ...CAPABILITIES, tasks: TASKS_CAPABILITY };
  const server = new Server(SERVER_INFO, { capabilities, instructions: instructions(registry) });

  server.setRequestHandler(
    'tools/list',
    async () =>
      ({
        tools: registry.list().map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          inputSchema: listedInput(registry.get(t.name) as AnyTool, t.inputSchema),
          outputSchema: registry.outputSchema(t.name),
          annotations: t.annotations,
          // A long job can run as a task on the 2025 revisions (tasks.ts); 2026-07-28 has no such field.
          ...(era === 'legacy' && LONG_JOBS[t.name] ? { execution: { taskSupport: 'optional' } } : {}),
          _meta: { category: t.category },
        })),
      }) as unknown as ListToolsResult,
  ); // our JSON Schemas are plain objects; the SDK types them as JSON values

  server.setRequestHandler('tools/call', async (request, call) => {
    const { name, arguments: given } = request.params;
    const tool = registry.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}"`, { code: 'NOT_FOUND', tool: name });
    const { confirm, ...args } = given ?? {};
    // A tool that may destroy something asks first, when the client can ask the person (elicitation over 2026-07-28's
    // input-required results) and the call does not already say `confirm: true`. Other clients call as before.
    const question = confirmationOf(tool, args);
    const answer = inputResponse(call.mcpReq.inputResponses, 'confirm');
    const agreed = confirm === true || (answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true);
    if (question && !agreed && server.getClientCapabilities()?.elicitation && call.mcpReq.envelope) {
      if (answer.kind === 'missing')
        return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: question, requestedSchema: ConfirmAnswer }) } });
      return { content: [{ type: 'text' as const, text: `DECLINED: The person did not agree (${question}); nothing was changed` }], isError: true };
    }
    try {
      const value = await callTool(registry, ctx, env, name, args);
      const result = toolResult(value);
      const links = tool.pages ? pageLinks(tool.pages(value as never)) : [];
      return links.length ? { ...result, content: [...result.content, ...links] } : result;
    } catch (err) {
      const { result, error } = errorResult(err);
      if (error.status >= 500) ctx.log.error({ err, tool: name }, 'mcp: tool failed');
      return result;
    }
  });

  server.setRequestHandler('resources/list', async () => ({ resources: await recentPages(ctx) }));

  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: [{ uriTemplate: PAGE_URI_TEMPLATE, name: 'page', title: 'A page as Markdown', mimeType: 'text/markdown' }],
  }));

  server.setRequestHandler('resources/read', async (request) => {
    try {
      return { contents: [await readPageResource(ctx, request.params.uri)] };
    } catch (err) {
      const e = toAppError(err as Error);
      if (e.status >= 500) throw err;
      const message = `${e.code}: ${e.message}`;
      if (e.code === 'NOT_FOUND' || e.code === 'DELETED') throw new ResourceNotFoundError(request.params.uri, message);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, message, { code: e.code, uri: request.params.uri });
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

/** The caller's context, handed to the per-request server factory as the request's (already checked) auth info. */
interface Caller extends Record<string, unknown> {
  ctx: Ctx;
}

/** A 2025-era request (after `initialize`, each on its own: no session) answered by a fresh server over the stateless transport, as JSON. */
async function servedLegacy(server: Server, request: Request, options: { parsedBody: unknown; authInfo: AuthInfo }): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, options);
  } finally {
    void transport.close();
    void server.close();
  }
}

/**
 * The standard MCP Streamable HTTP endpoint at `/api/mcp`, on the SDK v2: one endpoint for the 2026-07-28 revision
 * (per-request envelope, `server/discover`, no handshake; the SDK's serving entry) and for 2025-era clients
 * (`initialize` then requests, each answered on its own, as JSON: the stateless transport). Either way a request
 * gets a new server acting as its caller (the request gate has already authenticated them), closed when answered.
 */
export function mcpTransportRoutes(app: FastifyInstance, deps: HttpDeps, registry: ToolRegistry, env: ToolEnv, changes: PageChangeFeed) {
  const serverFor = (authInfo: AuthInfo | undefined, era: 'modern' | 'legacy') => {
    const caller = authInfo?.extra as Caller | undefined;
    if (!caller) throw new Error('mcp: a request reached the server without its caller');
    return mcpServerFor(registry, caller.ctx, env, era);
  };
  const handler = createMcpHandler(({ authInfo }) => serverFor(authInfo, 'modern'), {
    legacy: 'reject',
    responseMode: 'json',
    bus: pageChangeBus(changes),
    onerror: (err) => app.log.debug({ err }, 'mcp: request refused'),
  });
  app.addHook('onClose', () => handler.close());
  const schema = {
    tags: ['mcp'],
    security: [{ bearer: [] }],
    summary:
      'MCP Streamable HTTP, revisions 2026-07-28 and 2025-11-25 (stateless): tools/list, tools/call, resources/list, resources/read, subscriptions/listen (2026-07-28: pages followed over SSE)',
  };
  app.post('/api/mcp', { schema }, async (req, reply) => {
    const ctx = ctxOf(req, deps);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    const request = new Request(new URL(req.url, 'http://kb.local'), { method: 'POST', headers, body: JSON.stringify(req.body) });
    const caller: Caller = { ctx };
    const options = {
      parsedBody: req.body,
      authInfo: { token: '', clientId: ctx.actor?.userId ?? '', scopes: [], extra: caller },
    };
    const refused = await refusedListen(ctx, req.body);
    if (refused) return reply.status(200).header('content-type', 'application/json').send(refused);
    const legacy = await isLegacyRequest(request, req.body);
    const asTask = legacy ? await answeredAsTask(registry, ctx, env, req.body) : undefined;
    if (asTask) return reply.status(200).header('content-type', 'application/json').send(asTask);
    const answer = legacy ? await servedLegacy(serverFor(options.authInfo, 'legacy'), request, options) : await handler.fetch(request, options);
    reply.status(answer.status);
    answer.headers.forEach((value, key) => {
      if (key !== 'content-length') reply.header(key, value);
    });
    if (!answer.body) return reply.send();
    if (answer.headers.get('content-type')?.startsWith('text/event-stream')) return reply.send(Readable.fromWeb(answer.body as unknown as WebReadableStream));
    return reply.send(Buffer.from(await answer.arrayBuffer()));
  });
  app.get('/api/mcp', { schema: { ...schema, summary: 'Not used: the server is stateless (405)' } }, async (_req, reply) => methodNotAllowed(reply));
  app.delete('/api/mcp', { schema: { ...schema, summary: 'Not used: the server is stateless (405)' } }, async (_req, reply) => methodNotAllowed(reply));
}
