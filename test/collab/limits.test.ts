import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createSpace, doc, newPage } from '../pages/helpers.js';
import { type CollabClient, collabUrl, connect, eventually } from './helpers.js';

/**
 * Limits on co-editing sockets, with real sockets against the app on 127.0.0.1: a cap of open sockets per client
 * address (TRUST_PROXY on, so each test speaks from an X-Forwarded-For address of its own), and a deadline for a
 * socket to authenticate a document.
 */
const MAX_SOCKETS = 3;
const AUTH_TIMEOUT_MS = 1_000;
let t: TestApp;
let base: string;
const sockets: WebSocket[] = [];
const clients: CollabClient[] = [];
let w: Awaited<ReturnType<typeof workspaceWithRoles>>;
let pageId: string;

/** A co-editing client (@hocuspocus/provider) on the test's page, speaking from `address`. */
function open(token: string, address: string): CollabClient {
  const client = connect(base, pageId, token, { 'x-forwarded-for': address });
  clients.push(client);
  return client;
}

/** What one raw upgrade became: an open socket, or the HTTP answer that refused it. */
type Attempt = { open: WebSocket } | { status: number; retryAfter?: string; body: string };

function attempt(address: string): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(collabUrl(base), { headers: { 'x-forwarded-for': address } });
    sockets.push(ws);
    ws.on('open', () => resolve({ open: ws }));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
    });
    ws.on('error', reject);
  });
}

const closeOf = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));

beforeAll(async () => {
  t = await createTestApp({
    COLLAB_MAX_SOCKETS_PER_CLIENT: MAX_SOCKETS,
    COLLAB_AUTH_TIMEOUT_MS: AUTH_TIMEOUT_MS,
    COLLAB_SAVE_DEBOUNCE_MS: 100,
    COLLAB_SAVE_MAX_WAIT_MS: 500,
    TRUST_PROXY: true,
  } as never);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  w = await workspaceWithRoles(t);
  const space = (await createSpace(t, w.admin, w.workspace.id, { name: 'Limits' })).id;
  pageId = (await newPage(t, w.editor, w.workspace.id, space, { title: 'Kept', content: doc('Hello') })).id;
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  for (const ws of sockets) ws.terminate();
  await t?.close();
});

describe('co-editing socket limits', () => {
  it('refuses a client’s socket over the cap with 429 while the others are open, and admits one again after a close', async () => {
    // Held by authenticated clients, so the authentication deadline does not free them during the test.
    const held = Array.from({ length: MAX_SOCKETS }, () => open(w.editor.token, '203.0.113.1'));
    await Promise.all(held.map((c) => c.authenticated));

    const over = await attempt('203.0.113.1');
    expect(over).toMatchObject({ status: 429, retryAfter: '10' });
    expect((over as { body: string }).body).toContain(`at most ${MAX_SOCKETS}`);
    // Another address has its own allowance.
    expect('open' in (await attempt('203.0.113.9'))).toBe(true);

    held[0].destroy();
    const next = open(w.editor.token, '203.0.113.1');
    expect(await next.authenticated).toBe('read-write');
    expect(await attempt('203.0.113.1')).toMatchObject({ status: 429 });
  });

  it('closes a socket that authenticates no document within COLLAB_AUTH_TIMEOUT_MS', async () => {
    const opened = Date.now();
    const idle = await attempt('203.0.113.2');
    if (!('open' in idle)) throw new Error(`refused: ${idle.status}`);
    const closed = await closeOf(idle.open);
    expect(closed).toEqual({ code: 4408, reason: 'authentication-timeout' });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(AUTH_TIMEOUT_MS - 50);
    // Its place under the cap is free again: the client can open as many as before.
    const again = await Promise.all(Array.from({ length: MAX_SOCKETS }, () => attempt('203.0.113.2')));
    expect(again.every((a) => 'open' in a)).toBe(true);
  });

  it('keeps authenticated clients connected past the timeout, and they converge as before', async () => {
    const one = open(w.editor.token, '203.0.113.3');
    const two = open(w.admin.token, '203.0.113.3');
    let closes = 0;
    for (const c of [one, two]) void c.closed.then(() => closes++);
    await Promise.all([one.synced, two.synced]);

    await new Promise((r) => setTimeout(r, AUTH_TIMEOUT_MS * 2.5));
    expect(closes).toBe(0);
    one.type(' one');
    two.type('two', 1);
    await eventually('both clients to see both edits', () => one.text() === 'Hello one\ntwo' && two.text() === one.text());
    expect(closes).toBe(0);
  });
});
