import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Config } from '../../src/config.js';
import { createSpace } from '../spaces/helpers.js';
import { createTestApp, type TestApp } from './app.js';
import { workspaceWithRoles } from './factories.js';

/** Starts the app listening on a loopback port (for clients that need a real socket, like the MCP SDK's); its base URL. */
export async function listenOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** The official MCP SDK client, connected to the service's Streamable HTTP endpoint (`/api/mcp`) with a bearer credential: a JWT or an API key. */
export async function connectMcp(base: string, bearer: string, name = 'kb-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  return client;
}

/** The error of an `isError` tool result: its text is `CODE: message`, then `{ error: { code, status, message, details } }` as JSON. */
export function toolErrorOf(result: unknown): { code: string; status: number; message: string; details: Record<string, unknown> } {
  const [text] = (result as { content: Array<{ text: string }> }).content;
  return JSON.parse(text.text.slice(text.text.indexOf('\n') + 1)).error;
}

/** MCP clients a test file connects as it goes, kept to be closed after its tests. */
export function mcpClients() {
  const open: Client[] = [];
  return {
    async connect(base: string, bearer: string, name?: string) {
      const client = await connectMcp(base, bearer, name);
      open.push(client);
      return client;
    },
    close: () => Promise.all(open.map((c) => c.close())),
  };
}

/** A listening test app with a workspace of every role (admin, editor, viewer, outsider) and a space "Handbook" in it. */
export async function listeningHandbook(overrides: Partial<Config> = {}) {
  const t = await createTestApp(overrides);
  const base = await listenOnLoopback(t);
  const ws = await workspaceWithRoles(t);
  const spaceId = (await createSpace(t, ws.admin, ws.workspace.id, { name: 'Handbook' })).id;
  return { t, base, ws, spaceId };
}

/** A listening handbook (`listeningHandbook`) and an MCP client signed in as its editor, for the whole test file. */
export function useHandbookWithMcp(overrides: Partial<Config> = {}) {
  const h = {} as Awaited<ReturnType<typeof listeningHandbook>> & { client: Client };
  beforeAll(async () => {
    Object.assign(h, await listeningHandbook(overrides));
    h.client = await connectMcp(h.base, h.ws.editor.token);
  });
  afterAll(async () => {
    await h.client?.close();
    await h.t?.close();
  });
  return h;
}
