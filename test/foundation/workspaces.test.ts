import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, createWorkspace, workspaceWithRoles } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('workspaces', () => {
  it('creates a workspace, makes the creator admin, and lists it with role and memberCount', async () => {
    const ann = await createUser(t, 'Ann');
    const key = await createApiKey(t, ann);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: key,
      body: { name: 'Acme', hostname: 'Acme-HQ', description: 'Our place' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Acme',
      hostname: 'acme-hq',
      description: 'Our place',
      memberCount: 1,
      settings: { defaultRole: 'editor', allowPublicPages: false },
    });
    const list = await t.request({ url: '/api/workspaces', token: key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: created.body.data.id, role: 'admin', memberCount: 1 })]);
  });

  it('refuses a taken hostname with 409 and a bad one with 422', async () => {
    const ann = await createUser(t, 'Ann');
    const ws = await createWorkspace(t, ann);
    const taken = await t.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      token: ann.token,
      body: { name: 'Again', hostname: ws.hostname.toUpperCase() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'hostname' } });
    const bad = await t.request({ method: 'POST', url: '/api/v1/workspaces', token: ann.token, body: { name: 'Bad', hostname: 'no_underscores' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'hostname' } });
  });

  it('merges settings key by key and only admins update', async () => {
    const { workspace, admin, editor } = await workspaceWithRoles(t);
    const url = `/api/v1/workspaces/${workspace.id}`;
    const first = await t.request({ method: 'PUT', url, token: admin.token, body: { settings: { allowPublicPages: true } } });
    expect(first.status).toBe(200);
    const second = await t.request({ method: 'PUT', url, token: admin.token, body: { name: 'Renamed', settings: { defaultRole: 'viewer' } } });
    expect(second.body.data).toMatchObject({ name: 'Renamed', settings: { defaultRole: 'viewer', allowPublicPages: true } });
    const denied = await t.request({ method: 'PUT', url, token: editor.token, body: { name: 'Nope' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await t.request({ url, token: admin.token })).body.data.name).toBe('Renamed');
  });
});
