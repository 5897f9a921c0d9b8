import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { createHook } from './helpers.js';

let t: TestApp;
let open: TestApp;
let ctx: Awaited<ReturnType<typeof workspaceWithRoles>>;

beforeAll(async () => {
  t = await createTestApp();
  open = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORK: true });
  ctx = await workspaceWithRoles(t);
});
afterAll(async () => {
  await t?.close();
  await open?.close();
});

describe('webhooks API', () => {
  it('creates a webhook for an admin and answers its secret once', async () => {
    const { admin, workspace } = ctx;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: admin.token,
      body: { workspaceId: workspace.id, url: 'https://93.184.215.14/hooks/kb', events: ['page.created', 'comment.created'], description: 'CI' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { webhook, secret } = res.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(webhook).toMatchObject({
      workspaceId: workspace.id,
      url: 'https://93.184.215.14/hooks/kb',
      events: ['page.created', 'comment.created'],
      description: 'CI',
      enabled: true,
    });

    const got = await t.request({ url: `/api/v1/webhooks/${webhook.id}`, token: admin.token });
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(secret.slice(6, 20));
    expect(got.body.data).not.toHaveProperty('secret');
    const list = await t.request({ url: '/api/v1/webhooks', token: admin.token, query: { workspaceId: workspace.id } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(webhook.id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    // Stored encrypted: the secret is nowhere in the row.
    const row = await t.database.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.id).executeTakeFirstOrThrow();
    expect(row.secretEncrypted).not.toContain(secret.slice(6));
    expect(row.secretEncrypted).toMatch(/^v1:/);

    const audit = await t.database.db.selectFrom('auditLog').select(['action', 'targetId']).where('targetId', '=', webhook.id).execute();
    expect(audit.map((a) => a.action)).toEqual(['webhook.created']);
  });

  it('is for admins only: 403 for members, 404 for a webhook outside one’s workspaces', async () => {
    const { admin, editor, viewer, outsider, workspace } = ctx;
    const body = { workspaceId: workspace.id, url: 'https://93.184.215.14/x', events: ['*'] };
    for (const u of [editor, viewer]) {
      expect((await t.request({ method: 'POST', url: '/api/v1/webhooks', token: u.token, body })).status).toBe(403);
      expect((await t.request({ url: '/api/v1/webhooks', token: u.token, query: { workspaceId: workspace.id } })).status).toBe(403);
    }
    // Naming a workspace they are not in is 403 (as everywhere); a webhook of it is 404.
    expect((await t.request({ method: 'POST', url: '/api/v1/webhooks', token: outsider.token, body })).status).toBe(403);
    const { webhook } = await createHook(t, admin, body);
    expect((await t.request({ url: `/api/v1/webhooks/${webhook.id}`, token: editor.token })).status).toBe(403);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${webhook.id}`, token: editor.token, body: { enabled: false } })).status).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${webhook.id}`, token: viewer.token })).status).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/rotate-secret`, token: editor.token })).status).toBe(403);
    expect((await t.request({ url: `/api/v1/webhooks/${webhook.id}/deliveries`, token: editor.token })).status).toBe(403);
    expect((await t.request({ url: `/api/v1/webhooks/${webhook.id}`, token: outsider.token })).status).toBe(404);
    expect((await t.request({ url: '/api/v1/webhooks', query: { workspaceId: workspace.id } })).status).toBe(401);
  });

  it('refuses bad URLs and event types with a clear 4xx', async () => {
    const { admin, workspace } = ctx;
    const post = (body: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/webhooks', token: admin.token, body: { workspaceId: workspace.id, events: ['*'], ...body } });
    const cases: Array<[string, string]> = [
      ['ftp://93.184.215.14/x', 'unsupported_scheme'],
      ['https://user:pw@93.184.215.14/x', 'credentials_in_url'],
      ['not a url', 'invalid_url'],
    ];
    for (const [url, reason] of cases) {
      const res = await post({ url });
      expect(res.status, url).toBe(422);
      expect(res.body.error.details).toMatchObject({ field: 'url', reason });
    }
    const badEvent = await post({ url: 'https://93.184.215.14/x', events: ['page.exploded'] });
    expect(badEvent.status).toBeGreaterThanOrEqual(400);
    expect(badEvent.status).toBeLessThan(500);
    expect((await post({ url: 'https://93.184.215.14/x', events: [] })).status).toBeLessThan(500);
  });

  it('refuses loopback, private and link-local endpoints (by address or by name) unless allowed', async () => {
    const { admin, workspace } = ctx;
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://localhost:3000/x',
      'http://192.168.1.1/x',
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', token: admin.token, body: { workspaceId: workspace.id, url, events: ['*'] } });
      expect(res.status, url).toBe(422);
      expect(res.body.error.details).toMatchObject({ field: 'url', reason: 'private_address' });
    }
    const { webhook } = await createHook(t, admin, { workspaceId: workspace.id, url: 'https://93.184.215.14/x', events: ['*'] });
    const patched = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${webhook.id}`, token: admin.token, body: { url: 'http://127.0.0.1/x' } });
    expect(patched.status).toBe(422);
    expect(patched.body.error.details.reason).toBe('private_address');

    // With WEBHOOK_ALLOW_PRIVATE_NETWORK=true they are accepted.
    const o = await workspaceWithRoles(open);
    await createHook(open, o.admin, { workspaceId: o.workspace.id, url: 'http://127.0.0.1:8080/x', events: ['*'] });
  });

  it('updates, rotates and deletes', async () => {
    const { admin, workspace } = ctx;
    const { webhook, secret } = await createHook(t, admin, { workspaceId: workspace.id, url: 'https://93.184.215.14/a', events: ['*'] });
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${webhook.id}`,
      token: admin.token,
      body: { url: 'https://93.184.215.14/b', events: ['task.created'], description: 'tasks', enabled: false },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({
      url: 'https://93.184.215.14/b',
      events: ['task.created'],
      description: 'tasks',
      enabled: false,
      disabledReason: 'disabled by an admin',
    });
    const on = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${webhook.id}`, token: admin.token, body: { enabled: true } });
    expect(on.body.data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failedDeliveriesInRow: 0 });

    const rotated = await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/rotate-secret`, token: admin.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(secret);

    const del = await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${webhook.id}`, token: admin.token });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: webhook.id, deleted: true });
    expect((await t.request({ url: `/api/v1/webhooks/${webhook.id}`, token: admin.token })).status).toBe(404);
    const actions = await t.database.db.selectFrom('auditLog').select('action').where('targetId', '=', webhook.id).orderBy('createdAt').execute();
    expect(actions.map((a) => a.action)).toEqual(['webhook.created', 'webhook.updated', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted']);
  });

  it('names an unknown event type and the allowed ones (422, REST and MCP alike)', async () => {
    const { admin, workspace } = ctx;
    const body = { workspaceId: workspace.id, url: 'https://93.184.215.14/hooks/kb', events: ['page.created', 'page.deleted', 'task.done'] };
    const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', token: admin.token, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain('"page.deleted"');
    expect(res.body.error.message).toContain('page.trashed');
    expect(res.body.error.details).toMatchObject({ field: 'events.1', unknown: ['page.deleted', 'task.done'], allowed: expect.arrayContaining(['page.created', 'page.trashed', '*']) });
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toEqual(['events.1', 'events.2']);
    const mcp = await t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token: admin.token, body: { name: 'webhook_create', arguments: body } });
    expect(mcp.status).toBe(422);
    expect(mcp.body.error.details).toMatchObject({ unknown: ['page.deleted', 'task.done'] });

    // "*" stands alone, and an empty list is refused, each saying why.
    const starred = await t.request({ method: 'POST', url: '/api/v1/webhooks', token: admin.token, body: { ...body, events: ['*', 'page.created'] } });
    expect(starred.status).toBe(422);
    expect(starred.body.error.message).toMatch(/"\*" .*alone/);
    const empty = await t.request({ method: 'POST', url: '/api/v1/webhooks', token: admin.token, body: { ...body, events: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body.error.details.field).toBe('events');
    const update = await t.request({ method: 'PATCH', url: '/api/v1/webhooks/nope', token: admin.token, body: { events: ['Page.Created'] } });
    expect(update.status).toBe(422);
    expect(update.body.error.details.unknown).toEqual(['Page.Created']);
  });

  it('offers the MCP tools over the same rules (each with a success and an error)', async () => {
    const { admin, editor, workspace } = ctx;
    const call = (token: string, name: string, args: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/mcp-standard/call_tool', token, body: { name, arguments: args } });
    const created = await call(admin.token, 'webhook_create', { workspaceId: workspace.id, url: 'https://93.184.215.14/mcp', events: ['page.created'] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.structuredContent.secret).toMatch(/^whsec_/);
    const id = created.body.structuredContent.webhook.id;
    const badUrl = await call(admin.token, 'webhook_create', { workspaceId: workspace.id, url: 'http://169.254.169.254/', events: ['*'] });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body.error.details).toMatchObject({ field: 'url', reason: 'private_address' });

    const listed = await call(admin.token, 'webhook_list', { workspaceId: workspace.id });
    expect(listed.status).toBe(200);
    expect(listed.body.structuredContent.items.map((w: { id: string }) => w.id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const refused = await call(editor.token, 'webhook_list', { workspaceId: workspace.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');

    const updated = await call(admin.token, 'webhook_update', { webhookId: id, events: ['*'], description: 'all' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.structuredContent).toMatchObject({ id, events: ['*'], description: 'all' });
    expect((await call(editor.token, 'webhook_update', { webhookId: id, enabled: false })).status).toBe(403);

    const log = await call(admin.token, 'webhook_deliveries', { webhookId: id });
    expect(log.status).toBe(200);
    expect(log.body.structuredContent).toEqual({ data: [], meta: { limit: 50, hasMore: false, nextCursor: null } });
    expect((await call(editor.token, 'webhook_deliveries', { webhookId: id })).status).toBe(403);

    expect((await call(editor.token, 'webhook_delete', { webhookId: id })).status).toBe(403);
    const deleted = await call(admin.token, 'webhook_delete', { webhookId: id });
    expect(deleted.body.structuredContent).toEqual({ id, deleted: true });
    expect((await call(admin.token, 'webhook_delete', { webhookId: id })).status).toBe(404);
  });
});
